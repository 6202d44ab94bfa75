import { quickAddJob, runOnce } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { useTestDatabase } from '../../server/testing/test-database';
import { graphileLogger } from '../graphile-logger';
import { taskList } from './index';

const connectionString = await useTestDatabase();

/** Default attempts: a job that threw would stay queued for a retry, so `jobsLeft` would see it. */
async function runJob(task: string, payload: unknown): Promise<void> {
  await quickAddJob({ connectionString, logger: graphileLogger }, task, payload);
  await runOnce({ connectionString, taskList, noHandleSignals: true, logger: graphileLogger });
}

async function jobsLeft(): Promise<number> {
  const rows = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM graphile_worker.jobs`;
  return Number(rows[0].count);
}

describe('housekeeping tasks in graphile-worker', () => {
  it('purge-sessions deletes ended sessions when run by the worker', async () => {
    const member = await db().member.create({ data: { email: 'grace@example.test', name: 'Grace', passwordHash: 'x' } });
    const longAgo = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await db().session.create({ data: { memberId: member.id, tokenHash: 'old', expiresAt: longAgo } });
    await db().session.create({ data: { memberId: member.id, tokenHash: 'live', expiresAt: new Date(Date.now() + 3600_000) } });

    await runJob(housekeepingTaskNames.purgeSessions, { _cron: { ts: new Date().toISOString(), backfilled: false } });

    expect((await db().session.findMany()).map((session) => session.tokenHash)).toEqual(['live']);
    expect(await jobsLeft()).toBe(0);
  });

  it('drops a job whose payload is invalid instead of retrying it', async () => {
    await runJob(housekeepingTaskNames.purgeInvitations, { unexpected: true });
    expect(await jobsLeft()).toBe(0);
  });

  it('backfill-table-typed-slots gives slots to a table written before they existed, from an empty payload', async () => {
    const table = await db().dataTable.create({
      data: { name: 'Legacy', slug: 'legacy', columns: [{ key: 'score', label: 'Score', type: 'number', isKey: false, required: false, options: [], width: null, description: null }] },
    });
    await db().$executeRaw`INSERT INTO table_rows (id, table_id, cells) VALUES (gen_random_uuid(), ${table.id}::uuid, '{"score": 7}')`;

    await runJob(housekeepingTaskNames.backfillTableTypedSlots, {});

    expect((await db().dataTable.findUniqueOrThrow({ where: { id: table.id } })).typedSlots).toEqual({ score: 'n1' });
    expect(await db().$queryRaw`SELECT n1 FROM table_rows WHERE table_id = ${table.id}::uuid`).toEqual([{ n1: 7 }]);
    expect(await jobsLeft()).toBe(0);
  });
});
