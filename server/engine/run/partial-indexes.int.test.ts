/**
 * Issue 25 §1: each status change of a run writes a new version of its row into every index of `executions`
 * whose rows it matches. Seven of them hold only the rows their look-ups can match (migration
 * `executions_indexes_hold_only_what_is_looked_up`): a webhook run's lifecycle writes 29 index entries instead of
 * 48, ≈ 28 % less WAL. An index is worth nothing if the planner cannot prove its predicate from a statement's
 * conditions, and it would then silently read the table instead: these tests plan the engine's own look-ups (the
 * same SQL where it is exported) on a table of mostly finished runs and find each partial index in the plan.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { actedExpression } from './acted';
import { awaitedElsewhere, keyHeldByEarlierRun, slotAwaitedSql } from './admission';

await useTestDatabase();

type PlanNode = { 'Index Name'?: string; Plans?: PlanNode[] };

const ids = { member: '', workflow: '', parent: '', retried: '', message: '', keyed: '' };

beforeAll(async () => {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  ids.member = member.id;
  ids.workflow = workflow.id;
  // 3,000 finished webhook runs (the table's bulk), then one run of each kind a partial index holds.
  await db().$executeRaw`
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, started_at, finished_at, timeout_ms, updated_at)
    SELECT gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, 'succeeded', now(), now(), 60000, now()
      FROM generate_series(1, 3000)`;
  const [parent] = await db().$queryRaw<{ id: string }[]>`SELECT id FROM executions LIMIT 1`;
  Object.assign(ids, { parent: parent!.id, retried: parent!.id, message: randomUUID(), keyed: 'customer-7' });
  await db().$executeRaw`
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, holds_slot, parent_execution_id,
                            retry_of_execution_id, message_id, serial_key, wait_until, timeout_ms, updated_at)
    SELECT gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, kind.status, kind.holds_slot,
           CASE WHEN kind.n = 1 THEN ${ids.parent}::uuid END, CASE WHEN kind.n = 2 THEN ${ids.retried}::uuid END,
           CASE WHEN kind.n = 3 THEN ${ids.message}::uuid END, CASE WHEN kind.n = 4 THEN ${ids.keyed} END,
           CASE WHEN kind.status = 'waiting' THEN now() + interval '1 hour' END, 60000, now()
      FROM (VALUES (1, 'running', false), (2, 'queued', true), (3, 'succeeded', true), (4, 'queued', true),
                   (5, 'waiting', true)) AS kind(n, status, holds_slot)`;
  await db().$executeRawUnsafe('ANALYZE executions');
});

/** The indexes the plan of `query` reads. */
async function indexesRead(query: Prisma.Sql): Promise<string[]> {
  const [plan] = await db().$queryRaw<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>`EXPLAIN (FORMAT JSON) ${query}`;
  const names: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Index Name']) names.push(node['Index Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan!['QUERY PLAN'][0]!.Plan);
  return names;
}

describe('the partial indexes of executions are read by the look-ups they serve', () => {
  it("a member's live runs holding no slot (the start's cap)", async () => {
    const plan = await indexesRead(Prisma.sql`SELECT count(*) AS live FROM executions
      WHERE member_id = ${ids.member}::uuid AND holds_slot = false AND status IN ('queued', 'running', 'waiting')`);
    expect(plan).toContain('executions_member_id_holds_slot_status_idx');
  });

  it("the sweeper's expired deadlines and expired leases, and the instance's running slots", async () => {
    expect(await indexesRead(Prisma.sql`SELECT id FROM executions WHERE status = 'waiting' AND wait_until IS NOT NULL AND wait_until <= now() LIMIT 500`)).toContain(
      'executions_status_wait_until_idx',
    );
    expect(
      await indexesRead(Prisma.sql`SELECT id FROM executions WHERE status IN ('queued', 'running') AND lease_owner IS NOT NULL AND lease_until < now() LIMIT 500`),
    ).toContain('executions_status_seq_idx');
    expect(await indexesRead(Prisma.sql`SELECT count(*) FROM executions WHERE status = 'running' AND holds_slot`)).toContain('executions_status_seq_idx');
  });

  it("an earlier run holding a run's key (admission) and the open burst of a key", async () => {
    expect(await indexesRead(Prisma.sql`SELECT e.id FROM executions e WHERE e.id = ${ids.parent}::uuid AND ${keyHeldByEarlierRun}`)).toContain(
      'executions_workflow_id_serial_key_seq_idx',
    );
    expect(
      await indexesRead(Prisma.sql`SELECT id FROM executions WHERE workflow_id = ${ids.workflow}::uuid AND serial_key = ${ids.keyed} AND status = 'queued'
        AND coalesce_until > clock_timestamp() ORDER BY seq DESC LIMIT 1`),
    ).toContain('executions_workflow_id_serial_key_seq_idx');
  });

  it("a freed slot's question whether a run waits for it reads only the runs that wait, not every queued one", async () => {
    expect(await indexesRead(Prisma.raw(slotAwaitedSql))).toEqual(['executions_awaiting_slot_idx']);
  });

  it("an admission's question whether a run of another workflow waits reads only the runs that wait, by workflow", async () => {
    // Two descents of the index, whatever the backlog of the admitting workflow (issue 25 §1, a burst at 10 slots).
    expect(await indexesRead(Prisma.sql`SELECT ${awaitedElsewhere(ids.workflow)} AS waits`)).toEqual(['executions_awaiting_slot_idx', 'executions_awaiting_slot_idx']);
  });

  it("a run's called runs (acted, cancel), its replays and a message's runs", async () => {
    expect(await indexesRead(Prisma.sql`SELECT ${Prisma.raw(actedExpression(`'${ids.parent}'::uuid`))} AS acted`)).toContain(
      'executions_parent_execution_id_idx',
    );
    expect(await indexesRead(Prisma.sql`SELECT id FROM executions WHERE parent_execution_id = ANY(${[ids.parent]}::uuid[])`)).toContain(
      'executions_parent_execution_id_idx',
    );
    expect(await indexesRead(Prisma.sql`SELECT 1 FROM executions r WHERE r.retry_of_execution_id = ${ids.retried}::uuid`)).toContain(
      'executions_retry_of_execution_id_idx',
    );
    expect(await indexesRead(Prisma.sql`SELECT id FROM executions WHERE message_id = ${ids.message}::uuid`)).toContain('executions_message_id_idx');
  });

  it('a finished webhook run is in none of them', async () => {
    const partial = [
      'executions_member_id_holds_slot_status_idx',
      'executions_status_wait_until_idx',
      'executions_status_seq_idx',
      'executions_workflow_id_serial_key_seq_idx',
      'executions_parent_execution_id_idx',
      'executions_retry_of_execution_id_idx',
      'executions_message_id_idx',
      'executions_awaiting_slot_idx',
    ];
    // Index-only counts (the visibility map is set by VACUUM): each index holds the handful of special rows only.
    await db().$executeRawUnsafe('VACUUM executions');
    const sizes = await db().$queryRaw<{ name: string; entries: number }[]>`
      SELECT c.relname AS name, c.reltuples::int AS entries FROM pg_class c WHERE c.relname = ANY(${partial}::text[])`;
    expect(sizes).toHaveLength(partial.length);
    for (const index of sizes) expect(index.entries, index.name).toBeLessThanOrEqual(5);
  });
});
