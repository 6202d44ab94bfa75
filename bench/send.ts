/**
 * The send pipeline (server/domains/outbound/send) against bare nodemailer, both sending to the same local SMTP peer
 * (server/testing/mail-servers/smtp.ts, AUTH PLAIN, no TLS), 20 at a time, one SMTP connection per
 * message on both sides:
 *
 *   floor  bare nodemailer: `createTransport({host, port, auth}).sendMail({...})`, 20 concurrent loops
 *   app    the pipeline: outbound rows written with their jobs (createOutbound), graphile-worker running
 *          the `mail.send` task (runner settings: 20 jobs at once, local queue), claim + journal, MIME
 *          build, SMTP send, record; timed from the first row written to the last item `done`
 *
 * The Sent copy (an IMAP APPEND after each send) is left out on the app side: the floor has no
 * equivalent. Interleaved rounds; target app rate ≥ 0.5 × floor rate (information only, never fails).
 * `npx tsx bench/send.ts` runs it alone (BENCH_SEND_MESSAGES, default 400; BENCH_SEND_ROUNDS, default 2).
 */
import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { runnerConcurrency } from '../runner/worker-preset';
import { runSectionAlone } from './database';
import { fixed } from './stats';

const targetRatio = 0.5;
/** The runner's jobs at once; the floor sends as many at a time. */
const concurrency = runnerConcurrency;

export async function runSendBench(options: { databaseUrl: string; log: (message: string) => void; messages?: number; rounds?: number }): Promise<{ ratio: number }> {
  const { log } = options;
  const count = options.messages ?? (Number(process.env.BENCH_SEND_MESSAGES) || 400);
  const rounds = options.rounds ?? (Number(process.env.BENCH_SEND_ROUNDS) || 2);
  log(`\nsend pipeline vs bare nodemailer: ${count} messages to a local SMTP peer, ${concurrency} at a time, ${rounds} interleaved rounds`);
  process.env.DATABASE_URL = options.databaseUrl;
  process.env.MAIL_ALLOW_PRIVATE_HOSTS = '1';
  process.env.ENCRYPTION_KEY ??= `bench-instance-key-${randomUUID()}`;
  process.env.LOG_LEVEL ??= 'warn';
  // The bench measures the pipeline, not the blast-radius guard: one mailbox sends far more than the
  // instance's hourly cap here, which would (rightly) hold everything past the 200th message.
  process.env.SEND_CAP_MAILBOX_PER_HOUR = '1000000';
  process.env.SEND_CAP_WORKFLOW_PER_HOUR = '1000000';
  const { resetConfigForTests } = await import('../server/core/config');
  resetConfigForTests();
  const { db, disconnectDb } = await import('../server/core/db');
  const { startSmtpServer } = await import('../server/testing/mail-servers/smtp');
  const { createImapMailbox } = await import('../server/testing/imap-mailbox');
  const { createOutbound } = await import('../server/domains/outbound/create');
  const { runSend } = await import('../server/domains/outbound/send/pipeline');
  const { run } = await import('graphile-worker');
  const { graphileLogger } = await import('../runner/graphile-logger');

  const user = { user: `bench-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
  const smtp = await startSmtpServer({ users: [user] });
  const body = 'A line of an ordinary business message, long enough to look like one.\n'.repeat(40);
  // The worker's own pool as the runner makes it (runner/main.ts): sized to the concurrency plus the listener and
  // the cron, its commits (a job taken, a job done) not waiting for the WAL flush; ended here (the database is removed
  // after the section).
  const { separatePool } = await import('../server/core/db');
  const { runnerPoolSize, runnerWorkerPreset } = await import('../runner/worker-preset');
  const workerPool = separatePool(runnerPoolSize, 'bench: job worker database connection lost', { commitsWaitForWal: false });
  const worker = await run({
    pgPool: workerPool,
    logger: graphileLogger,
    noHandleSignals: true,
    taskList: {
      'mail.send': async (payload) => {
        await runSend((payload as { outboundId: string }).outboundId, { runnerId: 'bench-runner', allowPrivate: true, skipSentCopy: true });
      },
    },
    preset: runnerWorkerPreset,
  });
  try {
    const member = await db().member.create({ data: { email: `bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Bench', passwordHash: 'x' } });

    const floor = async (): Promise<number> => {
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          const transport = nodemailer.createTransport({ host: smtp.host, port: smtp.port, secure: false, auth: { user: user.user, pass: user.password } });
          while (next < count) {
            const index = next++;
            await transport.sendMail({ from: user.user, to: `r${index}@example.test`, subject: `Floor ${index}`, text: body });
          }
          transport.close();
        }),
      );
      return performance.now() - started;
    };

    const phaseNotes: string[] = [];
    const app = async (round: number): Promise<number> => {
      const row = await createImapMailbox(member, { host: '127.0.0.1', plainPort: 1, tlsPort: 1 }, user, { address: `round${round}-${user.user}` });
      const mailbox = await db().mailbox.update({
        where: { id: row.id },
        data: { settings: { ...(row.settings as object), smtpHost: smtp.host, smtpPort: smtp.port, smtpSecure: false } },
      });
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next < count) {
            const index = next++;
            await db().$transaction((tx) =>
              createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: false, to: [`r${index}@example.test`], subject: `App ${index}`, bodyText: body }, tx),
            );
          }
        }),
      );
      for (;;) {
        const open = await db().outboundMessage.count({ where: { mailboxId: mailbox.id, sendStatus: { notIn: ['done', 'failed', 'unknown'] } } });
        if (open === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const elapsed = performance.now() - started;
      const [phases] = await db().$queryRaw<{ wait: number; send: number }[]>`
        SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM j.started_at - o.created_at) * 1000) AS wait,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM j.finished_at - j.started_at) * 1000) AS send
          FROM outbound_messages o JOIN sending_journal j ON j.outbound_id = o.id AND j.event = 'attempt'
         WHERE o.mailbox_id = ${mailbox.id}::uuid`;
      phaseNotes.push(`row → claim p50 ${fixed(Number(phases?.wait), 0)} ms, claim → done p50 ${fixed(Number(phases?.send), 0)} ms`);
      const notDone = await db().outboundMessage.count({ where: { mailboxId: mailbox.id, sendStatus: { not: 'done' } } });
      if (notDone > 0) log(`  round ${round}: ${notDone} items did not end done`);
      return elapsed;
    };

    // Warm-up: connections, JIT, lazy imports of both paths.
    await floor();
    await app(-1);
    const floorMs: number[] = [];
    const appMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      floorMs.push(await floor());
      appMs.push(await app(round));
    }
    const rate = (ms: number) => (count / ms) * 1000;
    const floorRate = Math.max(...floorMs.map(rate));
    const appRate = Math.max(...appMs.map(rate));
    const ratio = appRate / floorRate;
    log(`  floor bare nodemailer: best ${fixed(floorRate, 0)} sends/s; rounds ${floorMs.map((ms) => `${fixed(rate(ms), 0)}/s`).join(', ')}`);
    log(`  app   pipeline (rows + jobs + mail.send task): best ${fixed(appRate, 0)} sends/s; rounds ${appMs.map((ms) => `${fixed(rate(ms), 0)}/s`).join(', ')}`);
    log(`  app phases per round (after the warm-up): ${phaseNotes.slice(1).join('; ')}`);
    log(`  ${ratio >= targetRatio ? 'PASS' : 'MISS'}  pipeline rate ≥ ${targetRatio} × bare nodemailer: ${fixed(ratio, 2)}×`);
    return { ratio };
  } finally {
    await worker.stop();
    await workerPool.end().catch(() => {});
    await smtp.stop();
    await disconnectDb();
  }
}

await runSectionAlone(import.meta.url, runSendBench);
