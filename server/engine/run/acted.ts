/**
 * Whether a finished run acted outside itself (issue 19 §3): a run whose condition led nowhere ends
 * `succeeded` like one that filed, replied or wrote, and the executions list must tell them apart
 * (`acted`, the `effects=with|without` filter). Decided once, when the run finishes, and stored on the
 * row (`executions.acted`), so the list filters on an indexed column instead of aggregating steps.
 *
 * A run acted when one of its own steps recorded an effect (the step's `effects`, simulated ones
 * included: a test run that would have acted counts), or when a run it called (sub-workflow run, loop
 * iteration), at any depth, did. Steps kept from the run a replay replays (`copied_from`) do not
 * count: their effects happened in the original.
 */
import type { Tx } from '../../core/db';

/** A step that recorded an effect of its own (`s`): not one kept from the run a replay replays. */
const actingStep = `s.copied_from IS NULL AND jsonb_typeof(s.effects) = 'array' AND jsonb_array_length(s.effects) > 0`;

/**
 * SQL: whether the execution whose id is `idColumn` acted, for an UPDATE of `executions` to set. First the run's
 * own steps, looked up by its id; then, only if none acted, its called runs at any depth (`parent_execution_id`),
 * walked rather than read from their flags, so runs finished in one statement (a cancel of a run and its children)
 * need no order. EXISTS stops at the first effect found.
 *
 * Every look-up is by one id, each a parameterised subquery the planner cannot turn into a join (`OFFSET 0`,
 * `LIMIT 1`): joined, the walk and the steps were planned as hash joins that read the whole of `execution_steps`
 * (and of `executions`) while the tables were small, and a connection keeps the plan of the run end's prepared
 * statement. The engine bench's every run end then scanned the whole steps table as it grew (1,901 sequential scans
 * for 1,895 ends, 9 million rows read). By id, each is an index look-up whatever the tables' sizes.
 */
export const actedExpression = (idColumn: string) => `(EXISTS (SELECT 1 FROM execution_steps s WHERE s.execution_id = ${idColumn} AND ${actingStep})
  OR EXISTS (
  WITH RECURSIVE tree(id) AS (
    SELECT c.id FROM executions c WHERE c.parent_execution_id = ${idColumn}
    UNION ALL
    SELECT called.id FROM tree t CROSS JOIN LATERAL (SELECT c.id FROM executions c WHERE c.parent_execution_id = t.id OFFSET 0) called
  )
  SELECT 1 FROM tree t CROSS JOIN LATERAL (SELECT 1 FROM execution_steps s WHERE s.execution_id = t.id AND ${actingStep} LIMIT 1) acting))`;

/** Records `acted` on a run that has just moved to a final status (same transaction). */
export async function recordActed(tx: Pick<Tx, '$executeRawUnsafe'>, executionIds: readonly string[]): Promise<void> {
  if (executionIds.length === 0) return;
  await tx.$executeRawUnsafe(`UPDATE executions SET acted = ${actedExpression('executions.id')} WHERE id = ANY($1::uuid[])`, executionIds);
}
