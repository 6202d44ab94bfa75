/**
 * The rows' own statements: read a row by id or key, lock the table for row writers, insert, update
 * and delete one stored row with every derived field (row-fields.ts), and the table's row count.
 * Rows belong to the team's shared tables: every query is scoped by the table id.
 */
import type { Tx } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { isUuid } from '../../../core/ids';
import { findTableOrThrow } from '../repo';
import { storedColumnsOf, type Column } from '../schemas';
import type { Cells } from './cells';
import type { StoredRow } from './present';
import { rowFieldsOf } from './row-fields';
import { parseTypedSlots, slotAssignmentsSql, slotColumnsSql, slotExpressionsSql, type TypedSlots } from './typed-slots';
import { writerColumns, type RowWriter } from './writer';

const returningSql =
  'id, cells, created_at, updated_at, created_by_member, created_by_execution, updated_by_member, updated_by_execution';

type Reader = Pick<Tx, '$queryRawUnsafe'>;

export async function findRow(tx: Reader, tableId: string, rowId: string, lock: boolean): Promise<StoredRow | null> {
  if (!isUuid(rowId)) return null;
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `SELECT ${returningSql} FROM table_rows WHERE id = $1::uuid AND table_id = $2::uuid${lock ? ' FOR UPDATE' : ''}`,
    rowId,
    tableId,
  );
  return rows[0] ?? null;
}

/** The oldest row whose key cell is `keyValue` (canonical form, see keyValueOf). */
export async function findRowByKey(tx: Reader, tableId: string, keyValue: string, lock: boolean): Promise<StoredRow | null> {
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `SELECT ${returningSql} FROM table_rows WHERE table_id = $1::uuid AND key_value = $2 ORDER BY seq LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    tableId,
    keyValue,
  );
  return rows[0] ?? null;
}

/** The row holding `keyValue` in the unique index (keyUnique on), locked. */
export async function findRowByUniqueKeyForUpdate(tx: Reader, tableId: string, keyValue: string): Promise<StoredRow | null> {
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(`SELECT ${returningSql} FROM table_rows WHERE table_id = $1::uuid AND unique_key = $2 FOR UPDATE`, tableId, keyValue);
  return rows[0] ?? null;
}

/** Serialises upserts of one key in a table without keyUnique (until the transaction ends). */
export async function lockKey(tx: Tx, tableId: string, keyValue: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${tableId}), hashtext(${keyValue}))`;
}

/** A table as row writers see it, read under their share lock. */
export interface LockedTable {
  id: string;
  slug: string;
  columns: Column[];
  keyUnique: boolean;
  rowCount: number;
  slots: TypedSlots | null;
}

/**
 * Resolves the table and takes the row writers' share lock on it (`FOR KEY SHARE`): structure
 * changes (`FOR UPDATE`) wait for row writes and row writes wait for them, so cells are always
 * validated against the structure they are stored under; row writers do not block each other.
 */
export async function lockTableForRows(tx: Tx, ref: string): Promise<LockedTable> {
  const table = await findTableOrThrow(ref, tx);
  const [locked] = await tx.$queryRaw<{ columns: unknown; key_unique: boolean; row_count: number; typed_slots: unknown }[]>`
    SELECT columns, key_unique, row_count, typed_slots FROM data_tables WHERE id = ${table.id}::uuid FOR KEY SHARE`;
  if (!locked) throw appError('tables.not_found');
  return {
    id: table.id,
    slug: table.slug,
    columns: storedColumnsOf(locked.columns),
    keyUnique: locked.key_unique,
    rowCount: locked.row_count,
    slots: parseTypedSlots(locked.typed_slots),
  };
}

/** Inserts; null when a row already holds the key while keyUnique is on. */
export async function insertStored(tx: Tx, table: LockedTable, cells: Cells, writer: RowWriter): Promise<StoredRow | null> {
  const derived = rowFieldsOf(table, cells);
  const { memberId, executionId } = writerColumns(writer);
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `INSERT INTO table_rows (id, table_id, cells, key_value, unique_key, search_text,
                             created_by_member, created_by_execution, updated_by_member, updated_by_execution, ${slotColumnsSql})
     VALUES (gen_random_uuid(), $1::uuid, $2::jsonb, $3, $4, $5, $6::uuid, $7, $6::uuid, $7, ${slotExpressionsSql('$8::jsonb')})
     ON CONFLICT (table_id, unique_key) DO NOTHING
     RETURNING ${returningSql}`,
    table.id,
    derived.cells,
    derived.keyValue,
    derived.uniqueKey,
    derived.searchText,
    memberId,
    executionId,
    derived.slots,
  );
  return rows[0] ?? null;
}

/** Replaces the row's cells; a key another row holds (keyUnique) is the database's unique violation. */
export async function updateStored(tx: Tx, table: LockedTable, rowId: string, cells: Cells, writer: RowWriter): Promise<StoredRow> {
  const derived = rowFieldsOf(table, cells);
  const { memberId, executionId } = writerColumns(writer);
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `UPDATE table_rows
        SET cells = $2::jsonb, key_value = $3, unique_key = $4, search_text = $5,
            updated_at = now(), updated_by_member = $6::uuid, updated_by_execution = $7, ${slotAssignmentsSql('$8::jsonb')}
      WHERE id = $1::uuid
     RETURNING ${returningSql}`,
    rowId,
    derived.cells,
    derived.keyValue,
    derived.uniqueKey,
    derived.searchText,
    memberId,
    executionId,
    derived.slots,
  );
  return rows[0];
}

export async function deleteStored(tx: Tx, tableId: string, rowId: string): Promise<StoredRow | null> {
  if (!isUuid(rowId)) return null;
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(`DELETE FROM table_rows WHERE id = $1::uuid AND table_id = $2::uuid RETURNING ${returningSql}`, rowId, tableId);
  return rows[0] ?? null;
}

/** The table's row count under the row lock every write transaction takes last (see writes.ts). */
export async function lockRowCount(tx: Tx, tableId: string): Promise<number> {
  const [locked] = await tx.$queryRaw<{ row_count: number }[]>`SELECT row_count FROM data_tables WHERE id = ${tableId}::uuid FOR NO KEY UPDATE`;
  return locked.row_count;
}

export async function moveRowCount(tx: Tx, tableId: string, net: number): Promise<void> {
  await tx.$executeRaw`UPDATE data_tables SET row_count = row_count + ${net} WHERE id = ${tableId}::uuid`;
}

// ----- write effects (engine-api.ts: a table write at most once per effect key) ---------------------

export function findWriteEffect(tx: Pick<Tx, 'tableWriteEffect'>, effectKey: string) {
  return tx.tableWriteEffect.findUnique({ where: { effectKey } });
}

/**
 * Claims the effect key (its record inserted, result pending) or, when another attempt holds it, waits for that
 * attempt on the record's primary key: no row answered means it was not claimed here.
 */
export function claimWriteEffect(tx: Tx, effectKey: string, effect: { operation: string; tableId: string; executionId: string }) {
  return tx.$queryRaw<{ effect_key: string }[]>`
      INSERT INTO table_write_effects (effect_key, operation, table_id, execution_id, result)
      VALUES (${effectKey}, ${effect.operation}, ${effect.tableId}::uuid, ${effect.executionId}, 'null'::jsonb)
      ON CONFLICT (effect_key) DO NOTHING
      RETURNING effect_key`;
}

/** The claimed effect completed with the row written and the answer to replay. */
export async function completeWriteEffect(tx: Tx, effectKey: string, rowId: string, result: unknown): Promise<void> {
  await tx.tableWriteEffect.update({ where: { effectKey }, data: { rowId, result: result as never } });
}
