/**
 * One row operation (insert, update, delete, upsert by the key column) inside a write transaction
 * that already holds the table (repo.ts lockTableForRows): cells validated against the locked
 * structure, then stored. The row count and the audit entry are the caller's (writes.ts).
 */
import type { Tx } from '../../../core/db';
import { isUniqueViolation } from '../../../core/db/sql-state';
import { appError, type AppError } from '../../../core/errors/app-error';
import { tableLimits } from '../limits';
import { cellProblem, columnName, keyValueOf, mergeCells, quotedValue, validateCells, type CellProblem, type Cells } from './cells';
import type { StoredRow } from './present';
import { deleteStored, findRow, findRowByKey, findRowByUniqueKeyForUpdate, insertStored, lockKey, updateStored, type LockedTable } from './repo';
import type { RowWriter } from './writer';

export type RowOperation =
  | { op: 'insert'; cells: Record<string, unknown> }
  | { op: 'update'; id: string; cells: Record<string, unknown> }
  | { op: 'upsert'; cells: Record<string, unknown> }
  | { op: 'delete'; id: string };

export interface OperationOutcome {
  op: RowOperation['op'];
  row: StoredRow;
  /** Upserts: whether the row was created. */
  created?: boolean;
  /** Net change of the table's row count. */
  delta: -1 | 0 | 1;
}

export function rowNotFound(rowId: string): AppError {
  return appError('tables.row_not_found', { message: `No row “${quotedValue(rowId)}” in this table.`, details: { rowId } });
}

/** The first problem's sentence (it names the column, the value and why), and how many more there are. */
export function problemsSentence(problems: { message: string }[]): string {
  const [first, ...others] = problems;
  if (!first) return 'Some cells do not fit their columns.';
  if (others.length === 0) return first.message;
  return `${first.message} ${others.length === 1 ? 'One other cell does' : `${others.length} other cells do`} not fit either.`;
}

export function invalidCells(problems: CellProblem[]): AppError {
  return appError('tables.invalid_cells', { message: problemsSentence(problems), details: { problems } });
}

/** An upsert without a value in the key column. */
export function keyRequired(keyColumn: LockedTable['columns'][number]): AppError {
  return invalidCells([{ ...cellProblem(keyColumn, 'required'), message: `${columnName(keyColumn)} is the table’s key: an upsert needs a value in it.` }]);
}

export function duplicateKey(columns: LockedTable['columns'], keyValue: string | null): AppError {
  const keyColumn = columns.find((column) => column.isKey);
  const message = keyColumn
    ? `Column “${quotedValue(keyColumn.label || keyColumn.key)}” is the table’s key and another row already has “${quotedValue(keyValue ?? '')}”.`
    : undefined;
  return appError('tables.duplicate_key', { message, details: { column: keyColumn?.key ?? null, key: keyValue } });
}

function validated(table: LockedTable, input: Record<string, unknown>, partial: boolean): Cells {
  const result = validateCells(table.columns, input, { partial, maxCellChars: tableLimits().maxCellChars });
  if (result.problems.length) throw invalidCells(result.problems);
  return result.cells!;
}

async function updateOrDuplicate(tx: Tx, table: LockedTable, rowId: string, cells: Cells, writer: RowWriter): Promise<StoredRow> {
  try {
    return await updateStored(tx, table, rowId, cells, writer);
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateKey(table.columns, keyValueOf(table.columns, cells));
    throw error;
  }
}

async function insertOperation(tx: Tx, table: LockedTable, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const cells = mergeCells({}, validated(table, input, false));
  const row = await insertStored(tx, table, cells, writer);
  if (!row) throw duplicateKey(table.columns, keyValueOf(table.columns, cells));
  return { op: 'insert', row, delta: 1 };
}

async function updateOperation(tx: Tx, table: LockedTable, rowId: string, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const current = await findRow(tx, table.id, rowId, true);
  if (!current) throw rowNotFound(rowId);
  const cells = mergeCells(current.cells, validated(table, input, true));
  return { op: 'update', row: await updateOrDuplicate(tx, table, current.id, cells, writer), delta: 0 };
}

async function deleteOperation(tx: Tx, table: LockedTable, rowId: string): Promise<OperationOutcome> {
  const row = await deleteStored(tx, table.id, rowId);
  if (!row) throw rowNotFound(rowId);
  return { op: 'delete', row, delta: -1 };
}

/**
 * Insert, or update the row holding the same key. With keyUnique the unique index decides
 * (`INSERT … ON CONFLICT DO NOTHING`, then the conflicting row is locked and updated); without it a
 * transaction advisory lock on (table, key) serialises upserts of one key, and the oldest row with
 * that key is the one updated. Given cells replace, cells not given stay, null clears.
 */
async function upsertOperation(tx: Tx, table: LockedTable, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const keyColumn = table.columns.find((column) => column.isKey);
  if (!keyColumn) throw appError('tables.key_column_missing');
  const given = validated(table, input, true);
  const keyValue = keyValueOf(table.columns, given);
  if (keyValue === null) {
    throw keyRequired(keyColumn);
  }
  const full = validateCells(table.columns, input, { partial: false, maxCellChars: tableLimits().maxCellChars });
  const update = async (existing: StoredRow): Promise<OperationOutcome> => ({
    op: 'upsert',
    row: await updateOrDuplicate(tx, table, existing.id, mergeCells(existing.cells, given), writer),
    created: false,
    delta: 0,
  });
  const insert = async (): Promise<StoredRow | null> => {
    if (full.problems.length) throw invalidCells(full.problems);
    return insertStored(tx, table, mergeCells({}, given), writer);
  };

  if (table.keyUnique) {
    // The conflicting row can vanish between the two statements (a concurrent delete): try again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const existing = await findRowByUniqueKeyForUpdate(tx, table.id, keyValue);
      if (existing) return update(existing);
      const inserted = await insert();
      if (inserted) return { op: 'upsert', row: inserted, created: true, delta: 1 };
    }
    throw duplicateKey(table.columns, keyValue);
  }

  await lockKey(tx, table.id, keyValue);
  const existing = await findRowByKey(tx, table.id, keyValue, true);
  if (existing) return update(existing);
  const inserted = await insert();
  if (!inserted) throw duplicateKey(table.columns, keyValue);
  return { op: 'upsert', row: inserted, created: true, delta: 1 };
}

export function applyOperation(tx: Tx, table: LockedTable, operation: RowOperation, writer: RowWriter): Promise<OperationOutcome> {
  switch (operation.op) {
    case 'insert':
      return insertOperation(tx, table, operation.cells, writer);
    case 'update':
      return updateOperation(tx, table, operation.id, operation.cells, writer);
    case 'delete':
      return deleteOperation(tx, table, operation.id);
    case 'upsert':
      return upsertOperation(tx, table, operation.cells, writer);
  }
}
