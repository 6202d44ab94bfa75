import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { useTestDatabase } from '../../testing/test-database';
import { enqueue, jobPending } from './enqueue';
import { jobKeys } from './catalogue';

await useTestDatabase();

const mailboxId = '00000000-0000-4000-8000-0000000000aa';

describe('enqueue (jobs in the caller’s transaction)', () => {
  it('adds a job with its key, deduplicated while pending', async () => {
    await enqueue('mail.sync', { mailboxId, reason: 'manual' }, { jobKey: jobKeys.sync(mailboxId) });
    await enqueue('mail.sync', { mailboxId, reason: 'manual' }, { jobKey: jobKeys.sync(mailboxId) });
    expect(await jobPending(jobKeys.sync(mailboxId))).toBe(true);
    const rows = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.sync(mailboxId)}`;
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('a rolled-back transaction leaves no job behind', async () => {
    const key = jobKeys.resync(mailboxId);
    await expect(
      db().$transaction(async (tx) => {
        await enqueue('mail.resync', { mailboxId, since: new Date().toISOString() }, { jobKey: key }, tx);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await jobPending(key)).toBe(false);
  });

  it('refuses a payload that does not match the catalogue', async () => {
    await expect(enqueue('mail.sync', { mailboxId: 'nope' } as never)).rejects.toThrow();
  });
});
