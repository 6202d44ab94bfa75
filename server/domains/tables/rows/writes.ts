/**
 * Row write transactions, for members (routes) and workflow executions (engine-api.ts).
 *
 * Every write transaction:
 * 1. reads the table's structure under `FOR KEY SHARE` on its `data_tables` row (repo.ts
 *    lockTableForRows): structure changes (`FOR UPDATE`) wait for row writes and row writes wait for
 *    them; row writers do not block each other;
 * 2. writes the rows (operations.ts; the unique index (table_id, unique_key) refuses duplicate keys
 *    while `keyUnique` is on; concurrent upserts meet there through `ON CONFLICT`, or on a transaction
 *    advisory lock on (table, key) without `keyUnique`);
 * 3. last, moves `row_count` by the net change, refusing to pass `maxRows` (the row lock it takes is
 *    always the last lock of the transaction, so writers cannot deadlock on it);
 * 4. records the audit entry (and the engine's effect record) in the same transaction.
 */
import { recordAudit } from '../../../core/audit';
import type { Tx } from '../../../core/db';
import { inRetriedTransaction } from '../../../core/db/retry';
import { appError, type AppError } from '../../../core/errors/app-error';
import { tableLimits } from '../limits';
import { applyOperation, type OperationOutcome, type RowOperation } from './operations';
import { lockRowCount, lockTableForRows, moveRowCount, type LockedTable } from './repo';
import type { WriteContext } from './writer';

/** A write transaction, tried again (up to 3 times) when the database aborts it for a deadlock. */
export function inWriteTransaction<T>(work: (tx: Tx) => Promise<T>, options: { timeout?: number } = {}): Promise<T> {
  return inRetriedTransaction(work, { timeout: options.timeout ?? 15_000, maxWait: 10_000, attempts: 3 });
}

export function limitReached(maxRows: number, index?: number): AppError {
  return appError('tables.limit_reached', { details: { limit: 'maxRows', value: maxRows, ...(index === undefined ? {} : { index }) } });
}

/**
 * Moves row_count by the deltas of the operations in order, refusing when it would pass maxRows
 * (the error names the first operation that would). The last lock of every write transaction.
 */
export async function applyRowCount(tx: Tx, tableId: string, deltas: number[], indexed: boolean): Promise<void> {
  const net = deltas.reduce((sum, delta) => sum + delta, 0);
  if (net === 0 && !deltas.some((delta) => delta > 0)) return;
  const { maxRows } = tableLimits();
  let count = await lockRowCount(tx, tableId);
  for (const [index, delta] of deltas.entries()) {
    count += delta;
    if (delta > 0 && count > maxRows) throw limitReached(maxRows, indexed ? index : undefined);
  }
  if (net !== 0) await moveRowCount(tx, tableId, net);
}

const auditActions = { insert: 'table.row_created', update: 'table.row_updated', delete: 'table.row_deleted' } as const;

export function auditDetails(ctx: WriteContext, details: Record<string, unknown>): Record<string, unknown> {
  return ctx.writer.kind === 'execution' ? { ...details, executionId: ctx.writer.executionId } : details;
}

/** One row operation inside a write transaction that already holds the table (lockTableForRows), with its audit entry. */
export async function writeOneIn(tx: Tx, table: LockedTable, operation: RowOperation, ctx: WriteContext): Promise<OperationOutcome> {
  if (operation.op === 'insert' && table.rowCount >= tableLimits().maxRows) throw limitReached(tableLimits().maxRows);
  const outcome = await applyOperation(tx, table, operation, ctx.writer);
  await applyRowCount(tx, table.id, [outcome.delta], false);
  const action = operation.op === 'upsert' ? (outcome.created ? auditActions.insert : auditActions.update) : auditActions[operation.op];
  await recordAudit(
    ctx.auditBy,
    {
      action,
      targetKind: 'table',
      targetId: table.id,
      details: auditDetails(ctx, { tableId: table.id, rowId: outcome.row.id, ...(operation.op === 'upsert' ? { upsert: true } : {}) }),
      ip: ctx.ip,
    },
    tx,
  );
  return outcome;
}

/** One row operation in its own transaction. */
export function writeOne(tableRef: string, operation: RowOperation, ctx: WriteContext): Promise<OperationOutcome> {
  return inWriteTransaction(async (tx) => writeOneIn(tx, await lockTableForRows(tx, tableRef), operation, ctx));
}
