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

/**
 * SQL: whether the execution whose id is `idColumn` acted, for an UPDATE of `executions` to set. It
 * walks the run's called runs at any depth (`parent_execution_id`) rather than reading their flags, so
 * runs finished in one statement (a cancel of a run and its children) need no order; EXISTS stops at
 * the first effect found (the recursive walk is evaluated on demand).
 */
export const actedExpression = (idColumn: string) => `EXISTS (
  WITH RECURSIVE tree(id) AS (
    SELECT ${idColumn}
    UNION ALL
    SELECT c.id FROM executions c JOIN tree t ON c.parent_execution_id = t.id
  )
  SELECT 1 FROM tree t JOIN execution_steps s ON s.execution_id = t.id
   WHERE s.copied_from IS NULL AND jsonb_typeof(s.effects) = 'array' AND jsonb_array_length(s.effects) > 0)`;

/** Records `acted` on a run that has just moved to a final status (same transaction). */
export async function recordActed(tx: Pick<Tx, '$executeRawUnsafe'>, executionIds: readonly string[]): Promise<void> {
  if (executionIds.length === 0) return;
  await tx.$executeRawUnsafe(`UPDATE executions SET acted = ${actedExpression('executions.id')} WHERE id = ANY($1::uuid[])`, executionIds);
}
