/**
 * One delta of one mailbox in a process of its own, for the crash-resume test (killed mid-batch) and
 * the benchmarks: `tsx runner/mail/testing/sync-once.ts <mailboxId> [batchSize]` with DATABASE_URL,
 * ENCRYPTION_KEY and MAIL_ALLOW_PRIVATE_HOSTS in the environment. Prints `synced` when done.
 */
import { disconnectDb } from '../../../server/core/db';
import { MailboxSession } from '../session';

const [mailboxId, batchSize] = process.argv.slice(2);
if (!mailboxId) {
  process.stderr.write('usage: sync-once.ts <mailboxId> [batchSize]\n');
  process.exit(2);
}
const session = new MailboxSession(mailboxId, {
  initialDays: 3650,
  initialMaxPerFolder: 1_000_000,
  limits: batchSize ? { messages: Number(batchSize) } : {},
});
const result = await session.run({ delta: true }, new AbortController().signal);
await session.close();
await disconnectDb();
if (result.outcome !== 'ok') {
  process.stderr.write(`${JSON.stringify(result)}\n`);
  process.exit(1);
}
process.stdout.write('synced\n');
