/**
 * Reconcilers of the mail and AI rollups (`dashboard_journal_hours`; `dashboard_llm_hours`, `dashboard_llm_model_hours`,
 * `dashboard_llm_purpose_hours`; migration `dashboard_mail_ai_rollups`): recompute the rollup rows of a range of whole UTC hours from the raw rows and
 * correct the differences (insert the missing, fix the wrong, delete the rows whose raw rows are gone), returning
 * how many rows they fixed. The triggers keep the rollups right in the writer's transaction; this repairs what
 * they cannot see (a trigger disabled for a bulk load, a restored backup, a hand edit of a rollup). The runner's
 * `dashboard-reconcile` task runs them (its registry: rollups/reconcile.ts, lane roll-runs), the last 48 hours
 * every 10 minutes and the whole history daily, each in a REPEATABLE READ transaction: a trigger's change to a
 * rollup row committed after the reconcile's snapshot makes the reconcile's write of that row a serialization
 * failure (tried again) rather than an overwrite with a count that predates it. Under READ COMMITTED (the test,
 * the bench's load) such a race would be put right by the next pass.
 *
 * One statement per pass. Rows at 0 (left by the triggers when an hour's rows are deleted or moved) are
 * removed without counting as a fix.
 */
import { reconcileBy } from '../repo-rollups';
import type { SqlStatement } from '../sql';
import type { RollupReconciler } from './reconciler';

interface RollupShape {
  name: string;
  table: string;
  source: string;
  /** Key columns: name, the raw expression (over `r`), whether it can be null. */
  key: { name: string; raw: string; nullable?: boolean }[];
  /** Counters: name, the raw aggregate (over `r`). */
  counters: { name: string; raw: string }[];
}

const journal: RollupShape = {
  name: 'dashboard_journal_hours',
  table: 'dashboard_journal_hours',
  source: 'mail_journal_entries',
  key: [
    { name: 'member_id', raw: 'r.member_id' },
    { name: 'mailbox_id', raw: 'r.mailbox_id' },
    { name: 'outcome', raw: 'r.outcome' },
  ],
  counters: [
    { name: 'entries', raw: 'count(*)::int' },
    { name: 'automated', raw: 'count(*) FILTER (WHERE r.automated)::int' },
  ],
};

/** The AI usage projections: by who paid (totals, series, members), by model, by purpose; the same counters. */
const usageCounters: RollupShape['counters'] = [
  { name: 'calls', raw: 'count(*)::int' },
  { name: 'input_tokens', raw: 'coalesce(sum(r.input_tokens), 0)::bigint' },
  { name: 'output_tokens', raw: 'coalesce(sum(r.output_tokens), 0)::bigint' },
  { name: 'reasoning_tokens', raw: 'coalesce(sum(r.reasoning_tokens), 0)::bigint' },
  { name: 'cost_usd', raw: 'coalesce(sum(r.cost_usd::numeric), 0)' },
  { name: 'unpriced_calls', raw: 'count(*) FILTER (WHERE r.cost_usd IS NULL)::int' },
];
const usageFilters: RollupShape['key'] = [
  { name: 'member_id', raw: 'r.member_id', nullable: true },
  { name: 'workflow_id', raw: 'r.workflow_id', nullable: true },
];
const llmShapes: RollupShape[] = [
  { name: 'dashboard_llm_hours', key: [...usageFilters, { name: 'on_member_key', raw: '(r.credential_id IS NOT NULL)' }] },
  { name: 'dashboard_llm_model_hours', key: [...usageFilters, { name: 'provider', raw: 'r.provider' }, { name: 'model', raw: 'r.model' }] },
  { name: 'dashboard_llm_purpose_hours', key: [...usageFilters, { name: 'purpose', raw: 'r.purpose' }] },
].map((shape) => ({ ...shape, table: shape.name, source: 'llm_usage', counters: usageCounters }));

/**
 * A join on the key that a hash or merge join can run: a nullable uuid compared through a value no row holds (the
 * nil uuid) rather than IS NOT DISTINCT FROM, which only a nested loop can evaluate.
 */
function keyJoin(shape: RollupShape, a: string, b: string): string {
  const side = (alias: string, column: RollupShape['key'][number]) =>
    column.nullable ? `coalesce(${alias}.${column.name}, '00000000-0000-0000-0000-000000000000'::uuid)` : `${alias}.${column.name}`;
  return [`${a}.hour = ${b}.hour`, ...shape.key.map((column) => `${side(a, column)} = ${side(b, column)}`)].join(' AND ');
}

/** The reconcile of `[fromHour, toHour)` (whole UTC hours) as one statement answering `fixed`. */
function reconcileSql(shape: RollupShape, fromHour: Date, toHour: Date): SqlStatement {
  const keys = shape.key.map((column) => column.name);
  const counters = shape.counters.map((column) => column.name);
  const all = ['hour', ...keys, ...counters];
  return {
    text: `WITH fresh AS (
  SELECT date_trunc('hour', r.created_at, 'UTC') AS hour, ${shape.key.map((column) => `${column.raw} AS ${column.name}`).join(', ')},
         ${shape.counters.map((column) => `${column.raw} AS ${column.name}`).join(', ')}
    FROM ${shape.source} r
   WHERE r.created_at >= $1::timestamptz AND r.created_at < $2::timestamptz
   GROUP BY ${shape.key.map((_, index) => index + 2).join(', ')}, 1
), kept AS (
  SELECT * FROM ${shape.table} WHERE hour >= $1::timestamptz AND hour < $2::timestamptz
), diff AS (
  SELECT ${all.map((name) => (counters.includes(name) ? `f.${name}` : `coalesce(f.${name}, k.${name}) AS ${name}`)).join(', ')},
         f.hour IS NULL AS gone,
         f.hour IS NULL AND (${counters.map((name) => `k.${name} = 0`).join(' AND ')}) AS empty
    FROM fresh f FULL JOIN kept k ON ${keyJoin(shape, 'f', 'k')}
   WHERE f.hour IS NULL OR k.hour IS NULL OR (${counters.map((name) => `f.${name}`).join(', ')}) IS DISTINCT FROM (${counters.map((name) => `k.${name}`).join(', ')})
), deleted AS (
  -- (Data-modifying CTEs run to completion whether or not the final SELECT reads them.)
  DELETE FROM ${shape.table} t USING diff d WHERE d.gone AND ${keyJoin(shape, 't', 'd')}
  RETURNING 1
), upserted AS (
  INSERT INTO ${shape.table} AS t (${all.join(', ')})
  SELECT ${all.join(', ')} FROM diff WHERE NOT gone
  ON CONFLICT (hour, ${keys.join(', ')}) DO UPDATE SET ${counters.map((name) => `${name} = excluded.${name}`).join(', ')}
  RETURNING 1
)
SELECT (SELECT count(*) FROM diff WHERE NOT empty)::int AS fixed`,
    values: [fromHour, toHour],
  };
}

const reconcilerOf = (shape: RollupShape): RollupReconciler => ({
  name: shape.name,
  async reconcile(tx, fromHour, toHour) {
    return reconcileBy(tx, reconcileSql(shape, fromHour, toHour));
  },
});

/** The mail and AI rollups' reconcilers, for the registry in rollups/reconcile.ts. */
export const mailAiReconcilers: RollupReconciler[] = [journal, ...llmShapes].map(reconcilerOf);

/** The rollup tables these reconcilers keep. */
export const mailAiRollupTables = [journal, ...llmShapes].map((shape) => shape.table);
