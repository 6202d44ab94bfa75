/**
 * Durable where the state is (ARCHITECTURE): graphile-worker's pool commits without waiting for the WAL flush, and
 * so does the engine's claim, in its own transaction only. What must not happen: the setting leaking onto a
 * connection of the process's pool, where every later commit (a run's start, an effect record, an end) would then
 * not wait either.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pool, separatePool, withStartupSetting } from '../../core/db';
import { claimExecution } from './lease';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { leftRunning } from '../../../runner/engine/testing/left-running';

const databaseUrl = await useTestDatabase();
{
  // The test server runs without waiting for the WAL anywhere (speed); this database's sessions wait, as a real
  // server's do, so that a connection left without it shows.
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`ALTER DATABASE "${(await admin.query<{ name: string }>('SELECT current_database() AS name')).rows[0]!.name}" SET synchronous_commit = on`);
  await admin.end();
}

const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((made) => made.end()));
});

/** `synchronous_commit` as each of `count` connections of `target`, held at once, sees it. */
async function settingOnConnections(target: pg.Pool, count: number): Promise<string[]> {
  const clients = await Promise.all(Array.from({ length: count }, () => target.connect()));
  try {
    return await Promise.all(clients.map(async (client) => (await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit));
  } finally {
    for (const client of clients) client.release();
  }
}

describe('commits that do not wait for the WAL', () => {
  it("a pool made with commitsWaitForWal false has it off on every connection, from the first statement; others keep the server's", async () => {
    const quick = separatePool(3, 'test pool connection lost', { commitsWaitForWal: false });
    const durable = separatePool(3, 'test pool connection lost');
    pools.push(quick, durable);
    // The first statement of a new connection already runs with it: a job fetched first must not wait either.
    expect((await quick.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('off');
    expect(await settingOnConnections(quick, 3)).toEqual(['off', 'off', 'off']);
    expect(await settingOnConnections(durable, 3)).toEqual(['on', 'on', 'on']);
  });

  it("the claim's transaction does not wait, and leaves the pool's connections durable for what follows", async () => {
    const member = await createMember();
    const { workflow, version } = await createWorkflow(member);
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, lease: null })),
    );
    const before = pool().totalCount;
    expect(new Set(await settingOnConnections(pool(), before))).toEqual(new Set(['on']));
    // Claimed at once, so that several connections of the pool each carry a claim.
    const claimed = await Promise.all(runs.map((run) => claimExecution(run.id, 'runner-a')));
    expect(claimed.map((run) => run?.id)).toEqual(runs.map((run) => run.id));
    const size = pool().totalCount;
    expect(size).toBeGreaterThan(0);
    expect(new Set(await settingOnConnections(pool(), size))).toEqual(new Set(['on']));
  });

  it('the setting travels in the startup packet, beside the options a database URL already gives', async () => {
    const url = new URL(databaseUrl);
    url.searchParams.set('options', '-c statement_timeout=12345');
    const made = new pg.Pool(withStartupSetting({ connectionString: url.toString(), max: 1 }, 'synchronous_commit=off'));
    pools.push(made);
    const shown = async (name: string) => (await made.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name];
    expect(await shown('synchronous_commit')).toBe('off');
    expect(await shown('statement_timeout')).toBe('12345ms');
  });
});
