/**
 * What an initial sync cannot avoid doing, in CPU, measured piece by piece on the same corpus (issue 25 §3): the
 * fetch (the floor's own CPU: imapflow reading every message, as any sync must), the parse (the ingest that gives
 * each message its text, HTML, snippet, addresses and signals, and nothing else: no threads, no rows) and the store
 * (PostgreSQL writing the mirrored rows with their indexes and compressed bodies, nothing else: a server-side copy of
 * the round's rows into a scratch table shaped as mail_messages, less the CPU of reading them and their bodies back). On a machine of
 * `cores` cores no sync of this corpus can end before their sum divided by the cores, however well its parts overlap:
 * the best ratio to the floor this machine allows. The IMAP server shares the machine too: its CPU for the floor's
 * fetch (Dovecot reading and sending every message, which any sync of it makes it do) is counted when the caller
 * could read it. The threads' tables, the attachments and every round trip are left out, so the bound is generous.
 */
import { availableParallelism } from 'node:os';
import { selfCpuMs } from './cpu';

export interface LeastWork {
  fetchCpuMs: number;
  parseCpuMs: number;
  storeCpuMs: number;
  /** The IMAP server's CPU for the same fetch (NaN when it could not be read: then left out of the bound). */
  serverCpuMs: number;
  cores: number;
  /** The shortest sync these pieces allow on this machine, ms. */
  boundMs: number;
}

interface LeastWorkInput {
  /** This process's CPU during the floor's best fetch. */
  fetchCpuMs: number;
  /** The IMAP server's CPU during that fetch, NaN when unknown. */
  serverCpuMs: number;
  sources: Buffer[];
  mailboxAddress: string;
  /** A mailbox whose mirror holds the corpus (an app round's). */
  mirroredMailboxId: string;
  /** PostgreSQL's CPU so far, ms (NaN for a remote server). */
  pgCpuMs: () => number;
}

export async function measureLeastWork(input: LeastWorkInput): Promise<LeastWork> {
  const { db } = await import('../server/core/db');
  const { ingestMessage } = await import('../server/mail/ingest/ingest');
  const { serverCompressesWithLz4 } = await import('../server/mail/mirror/pg-transaction');

  const parseStart = selfCpuMs();
  for (const source of input.sources) await ingestMessage(source, { mailboxAddress: input.mailboxAddress, mode: 'full', sourceComplete: true });
  const parseCpuMs = selfCpuMs() - parseStart;

  const columns = await db().$queryRawUnsafe<{ name: string }[]>(
    `SELECT quote_ident(column_name) AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'mail_messages' AND is_generated = 'NEVER' ORDER BY ordinal_position`,
  );
  const list = columns.map((column) => column.name).join(', ');
  // The bodies as new values (`|| ''` detoasts them), so that they are compressed and stored again as the sync's are;
  // a stored value copied as it is would keep its compressed form and skip that work.
  const bodies = new Set(['body_text', 'body_html']);
  const values = columns.map((column) => (bodies.has(column.name) ? `${column.name} || ''` : column.name)).join(', ');
  const scratch = 'bench_least_work_messages';
  await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${scratch}`);
  // Indexes, defaults, the generated search column and the bodies' storage, as the mirror's own table has them.
  await db().$executeRawUnsafe(`CREATE TABLE ${scratch} (LIKE mail_messages INCLUDING ALL)`);
  // Compressed as the writer compresses them: lz4 where the server has it (../server/mail/mirror/pg-transaction.ts).
  if (await serverCompressesWithLz4()) {
    await db().$executeRawUnsafe(`ALTER TABLE ${scratch} ${[...bodies].map((column) => `ALTER COLUMN ${column} SET COMPRESSION lz4`).join(', ')}`);
  }
  try {
    const readStart = input.pgCpuMs();
    await db().$queryRawUnsafe(`SELECT sum(octet_length(body_text || '') + octet_length(body_html || '')), count(*) FROM mail_messages WHERE mailbox_id = $1::uuid`, input.mirroredMailboxId);
    const readCpuMs = input.pgCpuMs() - readStart;
    const storeStart = input.pgCpuMs();
    await db().$executeRawUnsafe(`INSERT INTO ${scratch} (${list}) SELECT ${values} FROM mail_messages WHERE mailbox_id = $1::uuid`, input.mirroredMailboxId);
    // NaN stays NaN (a remote server): the caller then reports no bound.
    const storeCpuMs = Math.max(0, input.pgCpuMs() - storeStart - readCpuMs);
    const cores = availableParallelism();
    const serverCpuMs = Number.isFinite(input.serverCpuMs) ? input.serverCpuMs : 0;
    return {
      fetchCpuMs: input.fetchCpuMs,
      parseCpuMs,
      storeCpuMs,
      serverCpuMs: input.serverCpuMs,
      cores,
      boundMs: (input.fetchCpuMs + serverCpuMs + parseCpuMs + storeCpuMs) / cores,
    };
  } finally {
    await db().$executeRawUnsafe(`DROP TABLE IF EXISTS ${scratch}`);
  }
}
