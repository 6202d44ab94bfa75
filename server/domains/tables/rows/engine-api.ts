/**
 * What the workflow engine calls for its table read and write nodes (no HTTP, no tRPC): lookup by
 * key, insert, update, upsert. Writes are attributed to the execution (and audited for the member
 * it runs for) and are at most once per `effectKey`, the key the engine keeps stable across the
 * attempts of one step (spec, retries: "table write: at most once").
 *
 * The effect record (`table_write_effects`) is claimed, the row written and the record completed
 * in ONE transaction: either both exist or neither. A retry with the same key finds the record and
 * answers the first result (`replayed: true`) without writing; a retry racing a still-running first
 * attempt waits for it on the record's primary key, then does the same. A first attempt that failed
 * left nothing, so its retry writes normally.
 */
import { db, type Tx } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { cellProblem, keyValueOf, normaliseCell, type CellValue } from './cells';
import { invalidCells } from './operations';
import type { Row } from './schemas';
import type { RowOperation } from './operations';
import { presentRow } from './present';
import { claimWriteEffect, completeWriteEffect, findRowByKey, findWriteEffect, lockTableForRows } from './repo';
import { inWriteTransaction, writeOneIn } from './writes';
import type { WriteContext } from './writer';
import { storedColumnsOf } from '../schemas';
import { tableLimits } from '../limits';
import { findTableOrThrow } from '../repo';
import { z } from 'zod';

export interface ExecutionWriter {
  kind: 'execution';
  executionId: string;
  /** The member the workflow runs for: the audit log attributes the write to them. */
  memberId: string;
}

export type Cells = Record<string, CellValue>;

export interface WriteResult {
  row: Row;
  /** Upserts only: whether the row was created. */
  created?: boolean;
  /** True when this effect key had already been applied: `row`/`created` are the first answer. */
  replayed: boolean;
}

const storedResult = z.object({ row: z.custom<Row>(), created: z.boolean().optional() });

function contextOf(writer: ExecutionWriter): WriteContext {
  return { writer, auditBy: { memberId: writer.memberId }, ip: null };
}

function checkEffectKey(effectKey: string): void {
  if (typeof effectKey !== 'string' || effectKey.length < 1 || effectKey.length > 500) {
    throw new Error('effectKey must be a string of 1 to 500 characters');
  }
}

async function storedEffect(tx: Pick<Tx, 'tableWriteEffect'>, effectKey: string, operation: RowOperation['op']): Promise<WriteResult | null> {
  const effect = await findWriteEffect(tx, effectKey);
  if (!effect) return null;
  if (effect.operation !== operation) {
    throw new Error(`effect key ${JSON.stringify(effectKey)} was used for a table ${effect.operation}, not ${operation}`);
  }
  return { ...storedResult.parse(effect.result), replayed: true };
}

/** Runs one row operation at most once per effect key. */
async function onceForEffect(tableRef: string, operation: RowOperation, writer: ExecutionWriter, effectKey: string): Promise<WriteResult> {
  checkEffectKey(effectKey);
  const earlier = await storedEffect(db(), effectKey, operation.op);
  if (earlier) return earlier;

  const outcome = await inWriteTransaction(async (tx) => {
    const table = await lockTableForRows(tx, tableRef);
    // Waits while another attempt holding this key is still running; nothing claimed means it committed.
    const claimed = await claimWriteEffect(tx, effectKey, { operation: operation.op, tableId: table.id, executionId: writer.executionId });
    if (claimed.length === 0) return null;
    const done = await writeOneIn(tx, table, operation, contextOf(writer));
    const result = { row: presentRow(done.row), ...(operation.op === 'upsert' ? { created: done.created ?? false } : {}) };
    await completeWriteEffect(tx, effectKey, done.row.id, result);
    return result;
  });
  if (outcome === null) {
    const concurrent = await storedEffect(db(), effectKey, operation.op);
    if (!concurrent) throw new Error(`effect key ${JSON.stringify(effectKey)} vanished while being read`);
    return concurrent;
  }
  return { ...outcome, replayed: false };
}

/**
 * The oldest row whose key cell equals `keyValue` (compared like the key column stores it: an email
 * key case-insensitively), or null. 409 `tables.key_column_missing` without a key column.
 */
export async function lookupByKey(tableRef: string, keyValue: string | number | boolean): Promise<{ row: Row | null }> {
  const table = await findTableOrThrow(tableRef);
  const columns = storedColumnsOf(table.columns);
  const keyColumn = columns.find((column) => column.isKey);
  if (!keyColumn) throw appError('tables.key_column_missing');
  const normalised = normaliseCell(keyColumn, keyValue, tableLimits().maxCellChars);
  if ('reason' in normalised || normalised.value === null) {
    throw invalidCells([cellProblem(keyColumn, 'reason' in normalised ? normalised.reason : 'required', keyValue, 'reason' in normalised ? normalised.readings : undefined)]);
  }
  const canonical = keyValueOf(columns, { [keyColumn.key]: normalised.value })!;
  const row = await findRowByKey(db(), table.id, canonical, false);
  return { row: row ? presentRow(row) : null };
}

export function insertRow(tableRef: string, cells: Cells, writer: ExecutionWriter, effectKey: string): Promise<WriteResult> {
  return onceForEffect(tableRef, { op: 'insert', cells }, writer, effectKey);
}

/** Partial: given cells replace, null clears. */
export function updateRow(tableRef: string, rowId: string, cells: Cells, writer: ExecutionWriter, effectKey: string): Promise<WriteResult> {
  return onceForEffect(tableRef, { op: 'update', id: rowId, cells }, writer, effectKey);
}

/** Insert, or update the row with the same key cell (see operations.ts). `created` says which. */
export function upsertRow(tableRef: string, cells: Cells, writer: ExecutionWriter, effectKey: string): Promise<WriteResult> {
  return onceForEffect(tableRef, { op: 'upsert', cells }, writer, effectKey);
}

export { checkRowWrite } from './check-write';
