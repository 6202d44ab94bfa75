/**
 * `acted` (acted.ts) is decided at every run's end by a statement each connection prepares once and keeps planned.
 * A plan made while `execution_steps` was nearly empty must still read a run's own steps by index once the table
 * has grown: with the run's walk joined to the steps, every run's end of the engine bench scanned the whole table.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { actedExpression } from './acted';

const databaseUrl = await useTestDatabase();

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Actual Loops'?: number; Plans?: PlanNode[] };

const client = new pg.Client({ connectionString: databaseUrl });
let run = { id: '', member: '', workflow: '', version: '', children: [] as string[] };

beforeAll(async () => {
  const member = await createMember();
  const { workflow, version } = await createWorkflow(member);
  const [row] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, timeout_ms, updated_at)
    VALUES (gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, 'running', 60000, now()) RETURNING id`;
  // Two runs it called, one of which calls another: the walk goes two levels down.
  const children = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, parent_execution_id, timeout_ms, updated_at)
    SELECT gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, 'succeeded', ${row!.id}::uuid, 60000, now()
      FROM generate_series(1, 2) RETURNING id`;
  const [grandchild] = await db().$queryRaw<{ id: string }[]>`
    INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, parent_execution_id, timeout_ms, updated_at)
    VALUES (gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, 'succeeded', ${children[1]!.id}::uuid, 60000, now()) RETURNING id`;
  run = { id: row!.id, member: member.id, workflow: workflow.id, version: version!.id, children: [...children.map((child) => child.id), grandchild!.id] };
  await client.connect();
});

afterAll(async () => {
  await client.end();
});

/** The scans a plan ran (not those it skipped), as `Node Type on relation`. */
function scans(node: PlanNode, into: string[] = []): string[] {
  if (node['Relation Name'] && (node['Actual Loops'] ?? 0) > 0) into.push(`${node['Node Type']} on ${node['Relation Name']}`);
  for (const child of node.Plans ?? []) scans(child, into);
  return into;
}

describe("a run's end decides `acted`", () => {
  it('by index look-ups of its own and its called runs\' steps, with a plan made while the tables were nearly empty', async () => {
    // Planned once, now, as a connection of the pool plans the run end's prepared statement.
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE acted_probe(uuid) AS SELECT ${actedExpression('$1::uuid')} AS acted`);
    expect((await client.query(`EXECUTE acted_probe('${run.id}')`)).rows).toEqual([{ acted: false }]);

    // The tables grow under the kept plan: 600 runs of 8 steps; the run and the runs it called get 5 steps each, none acting.
    await db().$executeRaw`
      INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, timeout_ms, updated_at)
      SELECT gen_random_uuid(), ${run.member}::uuid, ${run.workflow}::uuid, ${run.version}::uuid, 'succeeded', 60000, now() FROM generate_series(1, 600)`;
    await db().$executeRaw`
      INSERT INTO execution_steps (id, execution_id, node_id, node_type, status, effects, seq)
      SELECT gen_random_uuid(), e.id, 'node-' || n, 'data.set', 'succeeded', '[]'::jsonb, n FROM executions e, generate_series(1, 8) AS n
       WHERE e.id <> ALL(${[run.id, ...run.children]}::uuid[])`;
    await db().$executeRaw`
      INSERT INTO execution_steps (id, execution_id, node_id, node_type, status, effects, seq)
      SELECT gen_random_uuid(), e.id, 'own-' || n, 'data.set', 'succeeded', '[]'::jsonb, n FROM unnest(${[run.id, ...run.children]}::uuid[]) AS e(id), generate_series(1, 5) AS n`;

    // Nothing acted: every look-up runs, down to the deepest called run; each reads by index.
    const [explained] = (await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE acted_probe('${run.id}')`)).rows;
    const read = scans(explained!['QUERY PLAN'][0]!.Plan);
    expect(read.some((scan) => scan.endsWith('on execution_steps'))).toBe(true);
    expect(read.filter((scan) => scan.startsWith('Seq Scan'))).toEqual([]);
    expect((await client.query(`EXECUTE acted_probe('${run.id}')`)).rows).toEqual([{ acted: false }]);
    // The walk's answer: an effect of the deepest called run makes the run acted, as one of its own does.
    await db().$executeRaw`UPDATE execution_steps SET effects = '[{"kind":"http"}]'::jsonb WHERE execution_id = ${run.children[2]!}::uuid AND node_id = 'own-3'`;
    expect((await client.query(`EXECUTE acted_probe('${run.id}')`)).rows).toEqual([{ acted: true }]);
  });
});
