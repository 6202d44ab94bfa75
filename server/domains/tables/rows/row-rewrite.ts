/**
 * Structural changes that touch every row of a table (a column's type, options or required flag, the
 * key column, a removed column, keyUnique, typed slots given to a table): each row's cells are
 * carried into the new structure in memory, then written back in one statement together with the
 * fields derived from them (row-fields.ts). Nothing is written when a single row does not fit: the
 * caller gets the rows that do not.
 */
import type { Tx } from '../../../core/db';
import { isUniqueViolation } from '../../../core/db/sql-state';
import { appError } from '../../../core/errors/app-error';
import type { CellProblem, Cells, CellValue } from './cells';
import { allRowCells, rewriteRowFields, setUniqueKeys } from './repo-bulk';
import { rowFieldsOf, type RowFields, type RowStructure } from './row-fields';
import type { Column } from '../schemas';
import type { TypedSlots } from './typed-slots';

export type CellTransform = (cells: Cells, rowId: string) => { cells: Cells } | { problem: { column: string; value: CellValue; reason: CellProblem['reason'] } };

/** How many misfits an error lists (the count is always complete). */
const listedMisfits = 20;

/** The structure the rows are carried into. */
export interface TargetStructure {
  columns: Column[];
  slots: TypedSlots | null;
}

export async function rewriteRows(tx: Tx, table: { id: string; keyUnique: boolean }, target: TargetStructure, transform: CellTransform): Promise<void> {
  const structure: RowStructure = { ...target, keyUnique: table.keyUnique };
  const rows = await allRowCells(tx, table.id);
  const misfits: { id: string; column: string; value: CellValue; reason: string }[] = [];
  const written: (RowFields & { id: string })[] = [];
  for (const row of rows) {
    const result = transform(row.cells, row.id);
    if ('problem' in result) misfits.push({ id: row.id, ...result.problem });
    else written.push({ id: row.id, ...rowFieldsOf(structure, result.cells) });
  }
  if (misfits.length > 0) {
    throw appError('tables.cells_incompatible', { details: { count: misfits.length, rows: misfits.slice(0, listedMisfits) } });
  }
  if (written.length === 0) return;
  try {
    await rewriteRowFields(tx, written);
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('tables.duplicate_key', { message: 'Several rows would share one key.' });
    throw error;
  }
}

/** Turns keyUnique on (refused while rows share a key) or off, in the database's unique index. */
export async function applyKeyUnique(tx: Tx, tableId: string, on: boolean): Promise<void> {
  try {
    await setUniqueKeys(tx, tableId, on);
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('tables.duplicate_key', { message: 'Rows share a key: remove the duplicates before making the key unique.' });
    throw error;
  }
}
