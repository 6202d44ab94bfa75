/**
 * Set-based statements on a table's rows: every row read for a structural rewrite, rows written back with their
 * derived fields (./row-fields.ts) in one statement, the unique-key index switched, and a CSV import's rows found by
 * key, inserted and updated in bulk. All in the caller's transaction, under the table lock it holds.
 */
import type { Tx } from '../../../core/db';
import type { Cells } from './cells';
import { assignRowFieldsSql, rowFieldArrays, unnestRowFieldsSql, type RowFields } from './row-fields';
import { slotColumnsSql, slotExpressionsSql } from './typed-slots';

/** Every row of the table, its id and cells. */
export function allRowCells(tx: Tx, tableId: string) {
  return tx.$queryRaw<{ id: string; cells: Cells }[]>`SELECT id, cells FROM table_rows WHERE table_id = ${tableId}::uuid`;
}

/** The rows' cells and derived fields replaced, one statement (a unique-key violation throws). */
export async function rewriteRowFields(tx: Tx, written: (RowFields & { id: string })[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE table_rows AS r SET ${assignRowFieldsSql('v')}
         FROM (SELECT unnest($1::uuid[]) AS id, ${unnestRowFieldsSql(2)}) AS v
        WHERE r.id = v.id`,
    written.map((row) => row.id),
    ...rowFieldArrays(written),
  );
}

/** The unique-key column set from the key (on) or cleared (off) on every row of the table. */
export async function setUniqueKeys(tx: Tx, tableId: string, on: boolean): Promise<void> {
  await tx.$executeRaw`UPDATE table_rows SET unique_key = CASE WHEN ${on} THEN key_value ELSE NULL END WHERE table_id = ${tableId}::uuid`;
}

/** For each key, the table's oldest row holding it. */
export function oldestRowsByKeys(tx: Tx, tableId: string, keys: string[]) {
  return tx.$queryRaw<{ id: string; key_value: string; cells: Cells }[]>`
        SELECT DISTINCT ON (key_value) id, key_value, cells FROM table_rows
         WHERE table_id = ${tableId}::uuid AND key_value = ANY(${keys}::text[])
         ORDER BY key_value, created_at, id`;
}

/** New rows, created in the order given (their `seq` follows it), attributed to the member. */
export async function insertRowsInOrder(tx: Tx, tableId: string, memberId: string, rows: RowFields[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO table_rows (id, table_id, cells, key_value, unique_key, search_text, created_by_member, updated_by_member, ${slotColumnsSql})
       SELECT gen_random_uuid(), $1::uuid, v.cells, v.key_value, v.unique_key, v.search_text, $2::uuid, $2::uuid, ${slotExpressionsSql('v.slots')}
         FROM (SELECT ${unnestRowFieldsSql(3)}, generate_subscripts($3::jsonb[], 1) AS position) AS v
        ORDER BY v.position`,
    tableId,
    memberId,
    ...rowFieldArrays(rows),
  );
}

/** Rows' cells and derived fields replaced, attributed to the member. */
export async function updateRowsByMember(tx: Tx, memberId: string, rows: (RowFields & { id: string })[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE table_rows AS r
          SET ${assignRowFieldsSql('v')}, updated_at = now(), updated_by_member = $1::uuid, updated_by_execution = NULL
         FROM (SELECT unnest($2::uuid[]) AS id, ${unnestRowFieldsSql(3)}) AS v
        WHERE r.id = v.id`,
    memberId,
    rows.map((row) => row.id),
    ...rowFieldArrays(rows),
  );
}
