/**
 * A corpus of real-world messages as they arrive on the wire (server/testing/mail-corpus/*.eml):
 * newsletters from the big sending platforms, out-of-office replies, bounces, read receipts,
 * calendar invitations, ticketing and code-review notifications, personal mail, list replies,
 * receipts and invoices. Header names keep their usual case, long values are folded and names and
 * subjects are encoded words, so tests that read them go through the parsing path ingest uses.
 * Addresses and ids are made up; header sets follow what those senders really write.
 *
 * The mailbox they were delivered to is `corpusMailbox`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const corpusMailbox = 'claire@atelier-lumiere.example';

const directory = join(import.meta.dirname, 'mail-corpus');

/** The corpus's message names (file names without `.eml`), sorted. */
export function corpusNames(): string[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => name.slice(0, -'.eml'.length))
    .sort();
}

/** One corpus message's source, with CRLF line ends as on the wire. */
export function corpusMessage(name: string): Buffer {
  const text = readFileSync(join(directory, `${name}.eml`), 'utf8');
  return Buffer.from(text.replace(/\r?\n/g, '\r\n'), 'utf8');
}
