/**
 * A successful replay resolves the incidents it answers (issue 19 §3): the failed run it replays, and,
 * when that run was itself a failed replay, every failed run up its `retry_of_execution_id` chain
 * (replay of a replay of …). Without this an incident stayed open after the member fixed the cause and
 * replayed, and the incident list kept reading as if the automation were still broken.
 *
 * Resolution is recorded on the incident (`resolvedAt`, `resolvedByExecutionId`) and counts as an
 * acknowledgement when none was given (the first instant of an earlier acknowledgement is kept), so the
 * unacknowledged lists and badges drop it. Acknowledging is not audited today; neither is this.
 * Runs in the transaction that moves the replay to `succeeded`, so the two are seen together.
 */
import type { Tx } from '../../core/db';

/** Retry chains are short (a member replays by hand); the bound keeps a corrupt cycle from looping. */
const maxChainDepth = 50;

export async function resolveIncidentsOfReplay(tx: Tx, replayExecutionId: string): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH RECURSIVE chain(id, depth) AS (
      SELECT retry_of_execution_id, 1 FROM executions
       WHERE id = ${replayExecutionId}::uuid AND retry_of_execution_id IS NOT NULL
      UNION ALL
      SELECT e.retry_of_execution_id, c.depth + 1 FROM executions e JOIN chain c ON e.id = c.id
       WHERE e.retry_of_execution_id IS NOT NULL AND c.depth < ${maxChainDepth}::int
    )
    UPDATE incidents
       SET resolved_at = now(), resolved_by_execution_id = ${replayExecutionId}::uuid,
           acknowledged_at = coalesce(acknowledged_at, now())
     WHERE execution_id IN (SELECT id FROM chain) AND resolved_at IS NULL
    RETURNING id`;
  return rows.map((row) => row.id);
}
