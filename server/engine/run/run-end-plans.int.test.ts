/**
 * Every run's end runs one of the held closes (finish.ts `closeWithHeldStatements`), prepared once per connection.
 * PostgreSQL plans a prepared statement afresh at each execution for as long as its custom plans look cheaper than
 * its generic one; a statement whose cost depends on a parameter's value (`acted = ($5 OR …)`, folded away when $5
 * is true) is then planned at every run's end. Each held close must settle on its generic plan: planned once.
 * And that plan finds the run by its primary key, whatever the statistics say of the runs in each status
 * (run-by-id.ts).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { closeWithHeldStatements } from './finish';

const databaseUrl = await useTestDatabase();
const client = new pg.Client({ connectionString: databaseUrl });

beforeAll(async () => {
  await client.connect();
});
afterAll(async () => {
  await client.end();
});

/** A held step's row, as heldStepsPayload writes it (step-rows.ts). */
function heldRows(): string {
  const at = new Date().toISOString();
  return JSON.stringify([
    { id: randomUUID(), node_id: 'set', node_type: 'data.set', status: 'succeeded', attempt: 1, seq: 2, input: {}, output: 'main', data: { a: 1 }, data_truncated: false, duration_ms: 1, effects: [], warnings: [], loop: null, pinned: false, disabled: false, started_at: at, finished_at: at, ended: false },
  ]);
}

describe("a run's end with held steps", () => {
  it.each(Object.entries(closeWithHeldStatements))('%s: planned once per connection, then its generic plan is kept', async (variant, statement) => {
    const name = `held_close_${variant}`;
    for (let execution = 0; execution < 12; execution++) {
      // A run that is not running under this lease: the statement writes nothing, as for a run cancelled meanwhile.
      const values = [randomUUID(), 'runner-a', 12, true, heldRows(), 'channel', ['{"a":1}']];
      const { rows } = await client.query({ name, text: statement.text, values });
      expect(rows).toEqual([]);
    }
    const { rows } = await client.query<{ custom_plans: string; generic_plans: string }>(
      `SELECT custom_plans, generic_plans FROM pg_prepared_statements WHERE name = $1`,
      [name],
    );
    // PostgreSQL tries five custom plans before it compares them with the generic one.
    expect(Number(rows[0]!.custom_plans)).toBeLessThanOrEqual(5);
    expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(7);
  });
});

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; Plans?: PlanNode[] };

/** Every scan of `executions` in a plan, as `Node Type using index`. */
function executionScans(node: PlanNode, into: string[] = []): string[] {
  if (node['Relation Name'] === 'executions' && node['Node Type'] !== 'ModifyTable') into.push(`${node['Node Type']} using ${node['Index Name'] ?? '-'}`);
  for (const child of node.Plans ?? []) executionScans(child, into);
  return into;
}

describe('the held close finds its run', () => {
  it.each(Object.entries(closeWithHeldStatements))(
    '%s: by the primary key, though the statistics saw no run running when 100 run now',
    async (_variant, statement) => {
      const member = await createMember();
      const { workflow, version } = await createWorkflow(member);
      const insertRuns = (count: number, status: string) => db().$executeRaw`
        INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, timeout_ms, updated_at)
        SELECT gen_random_uuid(), ${member.id}::uuid, ${workflow.id}::uuid, ${version!.id}::uuid, ${status}, 60000, now() FROM generate_series(1, ${count}::int)`;
      // A table of finished runs, analysed between bursts; then a burst's runs start.
      await insertRuns(3000, 'succeeded');
      await db().$executeRawUnsafe('ANALYZE executions');
      await insertRuns(100, 'running');
      const { rows } = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (GENERIC_PLAN, FORMAT JSON) ${statement.text}`);
      const found = executionScans(rows[0]!['QUERY PLAN'][0]!.Plan);
      // The run's own row; the `acted` walk reads the runs it called by their parent's id.
      expect(found[0]).toBe('Index Scan using executions_pkey');
      expect(found.filter((scan) => scan.includes('status'))).toEqual([]);
      // The burst ends: the next case's statistics see none running again.
      await db().$executeRaw`UPDATE executions SET status = 'succeeded' WHERE status = 'running'`;
    },
  );
});
