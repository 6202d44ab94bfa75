/**
 * MIME ingest (server/mail/ingest) against bare mailparser on the same corpus, in this process:
 *
 *   floor  `simpleParser(source)` with its defaults (what any mailparser user pays)
 *   app    `ingestMessage(source, { mode: 'full' })`: parse, bounds, addresses, ids, snippet,
 *          signals, attachment content kept
 *
 * Interleaved rounds, the same messages in the same order; target app time ≤ 1.3 × floor time.
 * `npx tsx bench/mime-ingest.ts` runs it alone. PASS/MISS is information only.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';
import { ingestMessage } from '../server/mail/ingest/ingest';
import { mailCorpus } from './mail-sync-corpus';

const targetRatio = 1.3;

export async function runMimeIngestBench(options: { log: (message: string) => void; messages?: number; rounds?: number }): Promise<{ ratio: number }> {
  const { log } = options;
  const count = options.messages ?? (Number(process.env.BENCH_INGEST_MESSAGES) || 2_000);
  const rounds = options.rounds ?? 3;
  log(`\nMIME ingest vs bare mailparser (${count} messages of the mail corpus, ${rounds} interleaved rounds)`);
  const corpus = (await mailCorpus(count, { seed: 11 })).map((message) => message.raw);
  const bytes = corpus.reduce((sum, raw) => sum + raw.length, 0);
  // Warm-up: JIT and lazy requires of both paths.
  for (const raw of corpus.slice(0, 200)) {
    await simpleParser(raw);
    await ingestMessage(raw, { mailboxAddress: 'me@example.test', mode: 'full' });
  }
  const floorMs: number[] = [];
  const appMs: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    let started = performance.now();
    for (const raw of corpus) await simpleParser(raw);
    floorMs.push(performance.now() - started);
    started = performance.now();
    for (const raw of corpus) await ingestMessage(raw, { mailboxAddress: 'me@example.test', mode: 'full' });
    appMs.push(performance.now() - started);
  }
  const floor = Math.min(...floorMs);
  const app = Math.min(...appMs);
  const ratio = app / floor;
  log(`  corpus ${(bytes / 1024 / 1024).toFixed(1)} MB, ${(bytes / count / 1024).toFixed(1)} KB per message on average`);
  log(`  floor simpleParser: best ${floor.toFixed(0)} ms (${((count / floor) * 1000).toFixed(0)} messages/s); rounds ${floorMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  log(`  app   ingestMessage: best ${app.toFixed(0)} ms (${((count / app) * 1000).toFixed(0)} messages/s); rounds ${appMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  log(`  ${ratio <= targetRatio ? 'PASS' : 'MISS'}  ingest time ≤ ${targetRatio} × bare mailparser: ${ratio.toFixed(2)}×`);
  return { ratio };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  await runMimeIngestBench({ log: (message) => console.log(message) });
}
