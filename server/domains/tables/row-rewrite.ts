/**
 * Structural changes that touch every row of a table (a column's type, options or required flag, the
 * key column, a removed column, keyUnique): each row's cells are carried into the new structure in
 * memory, then written back in one statement together with the derived key and search texts.
 * Nothing is written when a single row does not fit: the caller gets the rows that do not.
 */
import type { DataTable } from '../../generated/prisma/client';
import type { Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { keyValueOf, searchTextOf, type CellProblem, type Cells, type CellValue } from './cells';
import type { Column } from './schemas';

export type CellTransform = (cells: Cells, rowId: string) => { cells: Cells } | { problem: { column: string; value: CellValue; reason: CellProblem['reason'] } };

/** How many misfits an error lists (the count is always complete). */
const listedMisfits = 20;

function isUniqueViolation(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? '') + JSON.stringify((error as { meta?: unknown })?.meta ?? {});
  return /23505|unique constraint|Unique constraint/i.test(text);
}

export async function rewriteRows(tx: Tx, table: Pick<DataTable, 'id' | 'keyUnique'>, columns: Column[], transform: CellTransform): Promise<void> {
  const rows = await tx.$queryRaw<{ id: string; cells: Cells }[]>`SELECT id, cells FROM table_rows WHERE table_id = ${table.id}::uuid`;
  const misfits: { id: string; column: string; value: CellValue; reason: string }[] = [];
  const ids: string[] = [];
  const cells: string[] = [];
  const keys: (string | null)[] = [];
  const searches: string[] = [];
  for (const row of rows) {
    const result = transform(row.cells, row.id);
    if ('problem' in result) {
      misfits.push({ id: row.id, ...result.problem });
      continue;
    }
    ids.push(row.id);
    cells.push(JSON.stringify(result.cells));
    keys.push(keyValueOf(columns, result.cells));
    searches.push(searchTextOf(columns, result.cells));
  }
  if (misfits.length > 0) {
    throw appError('tables.cells_incompatible', { details: { count: misfits.length, rows: misfits.slice(0, listedMisfits) } });
  }
  if (ids.length === 0) return;
  try {
    await tx.$executeRaw`
      UPDATE table_rows AS r
         SET cells = v.cells, key_value = v.key_value, search_text = v.search_text,
             unique_key = CASE WHEN ${table.keyUnique} THEN v.key_value ELSE NULL END
        FROM (SELECT unnest(${ids}::uuid[]) AS id, unnest(${cells}::jsonb[]) AS cells,
                     unnest(${keys}::text[]) AS key_value, unnest(${searches}::text[]) AS search_text) AS v
       WHERE r.id = v.id`;
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('tables.duplicate_key', { message: 'Several rows would share one key.' });
    throw error;
  }
}

/** Turns keyUnique on (refused while rows share a key) or off, in the database's unique index. */
export async function applyKeyUnique(tx: Tx, tableId: string, on: boolean): Promise<void> {
  try {
    await tx.$executeRaw`UPDATE table_rows SET unique_key = CASE WHEN ${on} THEN key_value ELSE NULL END WHERE table_id = ${tableId}::uuid`;
  } catch (error) {
    if (isUniqueViolation(error)) throw appError('tables.duplicate_key', { message: 'Rows share a key: remove the duplicates before making the key unique.' });
    throw error;
  }
}
