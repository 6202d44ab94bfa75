/**
 * A row write checked without writing: what a workflow's test run does where a live run writes
 * (issue 19: a test run that would fail live fails in the test, with the same code and message).
 * The same reads and the same validation as operations.ts, without its locks or any write, so it
 * throws the AppError a live write would throw for the same table, rows and cells:
 * `tables.not_found`, `tables.invalid_cells` (each problem naming its column, value and why),
 * `tables.row_not_found`, `tables.key_column_missing`, `tables.duplicate_key` (an insert whose key
 * a row already holds while `keyUnique`), `tables.limit_reached` (an insert into a full table).
 *
 * What it cannot see: a row written or deleted between the test and a live run, and the concurrent
 * writers a live write meets under its locks.
 */
import { db } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { tableLimits } from '../limits';
import { findTableOrThrow } from '../repo';
import { storedColumnsOf } from '../schemas';
import { keyValueOf, validateCells, type Cells } from './cells';
import { duplicateKey, invalidCells, keyRequired, rowNotFound } from './operations';
import { findRow, findRowByKey } from './repo';
import { limitReached } from './writes';

export type CheckedWrite =
  | { op: 'insert'; cells: Record<string, unknown> }
  | { op: 'update'; id: string; cells: Record<string, unknown> }
  | { op: 'upsert'; cells: Record<string, unknown> };

/**
 * Throws what the live write would throw; answers the given cells as they would be stored (null
 * clears) and, for an upsert, whether it would create its row.
 */
export async function checkRowWrite(tableRef: string, operation: CheckedWrite): Promise<{ cells: Cells; created?: boolean }> {
  const table = await findTableOrThrow(tableRef);
  const columns = storedColumnsOf(table.columns);
  const { maxCellChars, maxRows } = tableLimits();
  const validate = (partial: boolean) => {
    const result = validateCells(columns, operation.cells, { partial, maxCellChars });
    if (result.problems.length) throw invalidCells(result.problems);
    return result.cells!;
  };
  const full = table.rowCount >= maxRows;

  if (operation.op === 'update') {
    if (!(await findRow(db(), table.id, operation.id, false))) throw rowNotFound(operation.id);
    return { cells: validate(true) };
  }
  if (operation.op === 'insert') {
    const cells = validate(false);
    const key = keyValueOf(columns, cells);
    if (table.keyUnique && key !== null && (await findRowByKey(db(), table.id, key, false))) throw duplicateKey(columns, key);
    if (full) throw limitReached(maxRows);
    return { cells };
  }
  const keyColumn = columns.find((column) => column.isKey);
  if (!keyColumn) throw appError('tables.key_column_missing');
  const given = validate(true);
  const key = keyValueOf(columns, given);
  if (key === null) throw keyRequired(keyColumn);
  if (await findRowByKey(db(), table.id, key, false)) return { cells: given, created: false };
  validate(false);
  if (full) throw limitReached(maxRows);
  return { cells: given, created: true };
}
