import type { Tx } from '../../../core/db';

/**
 * One rollup's reconciler: recomputes its rows for the whole UTC hours `[fromHour, toHour)` from the raw
 * rows and corrects the differences, answering how many rows it fixed (registry: reconcile.ts).
 */
export interface RollupReconciler {
  name: string;
  reconcile(tx: Tx, fromHour: Date, toHour: Date): Promise<number>;
}
