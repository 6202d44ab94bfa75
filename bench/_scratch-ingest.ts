import { mailCorpus } from './mail-sync-corpus';
import { ingestMessage, listedHeaderNames } from '../server/mail/ingest/ingest';
import { fastParseMime } from '../server/mail/ingest/fast-mime';

/** Dovecot's HEADER.FIELDS: the named lines (with their continuations) and the empty line. */
function headerFields(source: Buffer, names: Set<string>): Buffer {
  const text = source.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const head = text.slice(0, end < 0 ? text.length : end);
  const out: string[] = [];
  let keep = false;
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line)) { if (keep) out.push(line); continue; }
    const name = line.slice(0, line.indexOf(':')).trim().toLowerCase();
    keep = names.has(name);
    if (keep) out.push(line);
  }
  return Buffer.from(out.join('\r\n') + '\r\n\r\n', 'latin1');
}
const corpus = await mailCorpus(10000, { seed: 5, to: 'user@example.test', traceHeaders: true });
const names = new Set(listedHeaderNames);
const sources = corpus.map((m: any) => headerFields(m.source ?? m.raw ?? m, names));
let slow = 0;
for (const s of sources) if (!fastParseMime(s, { keepContent: true })) slow++;
console.log('header-only sources', sources.length, 'avg bytes', Math.round(sources.reduce((a, s) => a + s.length, 0) / sources.length), 'not fast', slow);
for (let round = 0; round < 4; round++) {
  const t = process.hrtime.bigint();
  for (const s of sources) await ingestMessage(s, { mailboxAddress: 'user@example.test', mode: 'full', sourceComplete: false });
  console.log('ingest', Number(process.hrtime.bigint() - t) / 1e6, 'ms');
}
