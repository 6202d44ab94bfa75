/**
 * The rollups' reconcilers send their statements here (the statements, and why they are right, stay in
 * ./rollups/: runs.ts, durations-reconcile.ts, mail-ai-reconcile.ts), always in the reconcile's transaction.
 */
import { db, type Tx } from '../../core/db';
import type { SqlStatement } from './sql';

/** The reconcile's transaction sees one snapshot (run first in it): see ./rollups/reconcile.ts for why. */
export async function useRepeatableRead(tx: Tx): Promise<void> {
  await tx.$executeRawUnsafe('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
}

/** Runs a reconcile statement that answers `fixed` (its first row's); 0 when it answers no row. */
export async function reconcileBy(tx: Tx, statement: SqlStatement): Promise<number> {
  const [row] = await tx.$queryRawUnsafe<{ fixed: number }[]>(statement.text, ...statement.values);
  return row?.fixed ?? 0;
}

/** Runs a statement that answers no rows (a clean-up after a reconcile). */
export async function executeIn(tx: Tx, statement: SqlStatement): Promise<void> {
  await tx.$executeRawUnsafe(statement.text, ...statement.values);
}

/**
 * Moves the runs' pending rollup increments (`dashboard_run_hour_deltas`, `dashboard_duration_day_deltas`: a run's
 * end appends one instead of locking a shared rollup row) into `dashboard_run_hours` and `dashboard_duration_days`,
 * answering how many it moved (migration `run_rollups_take_increments_as_rows`). The reads add the pending ones, so
 * folding changes no figure; a reconcile folds first, in its own snapshot, so its raw count and the rollup agree on
 * which runs they hold.
 */
export async function foldRunRollupIncrements(client: Pick<Tx, '$queryRawUnsafe'> = db()): Promise<number> {
  const [row] = await client.$queryRawUnsafe<{ moved: number }[]>('SELECT dashboard_rollups_fold() AS moved');
  return row?.moved ?? 0;
}
