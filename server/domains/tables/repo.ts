/**
 * The tables' own queries: a table by id or slug, and the locks every writer takes. Tables are
 * shared by the whole team (no member scoping: every member reads them, administrators change them).
 *
 * Locks, from the widest:
 * - the structure advisory lock: creating, renaming and deleting tables (count, slug uniqueness);
 * - `FOR UPDATE` on the table's row: column changes and CSV imports (row writers wait);
 * - `FOR KEY SHARE` on the table's row: row writes (rows/repo.ts; they do not block each other).
 */
import type { DataTable, Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { firstFree } from './naming';
import { isUuid } from '../../core/ids';

/** By id or by slug, as the routes accept either. */
export async function findTableOrThrow(ref: string, tx: Tx = db()): Promise<DataTable> {
  const table = await tx.dataTable.findUnique({ where: isUuid(ref) ? { id: ref.toLowerCase() } : { slug: ref } });
  if (!table) throw appError('tables.not_found');
  return table;
}

/** Serialises structure changes of the set of tables (count, slugs). */
export async function lockStructure(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('tables:structure'))`;
}

/** The table's row under FOR UPDATE, then read again: row writers and other structure changes wait. */
export async function lockTableForUpdate(tx: Tx, ref: string): Promise<DataTable> {
  const { id } = await findTableOrThrow(ref, tx);
  await tx.$queryRaw`SELECT id FROM data_tables WHERE id = ${id}::uuid FOR UPDATE`;
  return findTableOrThrow(id, tx);
}

export async function isSlugTaken(tx: Tx, slug: string): Promise<boolean> {
  return (await tx.dataTable.findUnique({ where: { slug }, select: { id: true } })) !== null;
}

/** `base`, or `base-2`, `base-3`… the first slug no table uses. */
export async function freeSlug(tx: Tx, base: string): Promise<string> {
  const taken = await tx.dataTable.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
  return firstFree(base, new Set(taken.map((table) => table.slug)), '-');
}

export function countTables(tx: Tx): Promise<number> {
  return tx.dataTable.count();
}

export function listAllTables(): Promise<DataTable[]> {
  return db().dataTable.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }] });
}

export function insertTable(tx: Tx, data: Prisma.DataTableUncheckedCreateInput): Promise<DataTable> {
  return tx.dataTable.create({ data });
}

export function updateTable(tx: Tx, id: string, data: Prisma.DataTableUncheckedUpdateInput): Promise<DataTable> {
  return tx.dataTable.update({ where: { id }, data });
}

export async function deleteTableRow(tx: Tx, id: string): Promise<void> {
  await tx.dataTable.delete({ where: { id } });
}

/** The table's row count moved by `inserted` new rows. */
export async function addToRowCount(tx: Tx, id: string, inserted: number): Promise<void> {
  await tx.dataTable.update({ where: { id }, data: { rowCount: { increment: inserted } } });
}

/** Tables whose rows were written before typed slots existed (`typed_slots` NULL), oldest first. */
export function tablesWithoutSlots() {
  return db().$queryRaw<{ id: string }[]>`SELECT id FROM data_tables WHERE typed_slots IS NULL ORDER BY created_at`;
}

/** The table's row under FOR UPDATE, as stored (its slots may be NULL), or undefined when it is gone. */
export async function lockTableRowForSlots(tx: Tx, id: string) {
  const [table] = await tx.$queryRaw<{ id: string; key_unique: boolean; columns: unknown; typed_slots: unknown }[]>`
          SELECT id, key_unique, columns, typed_slots FROM data_tables WHERE id = ${id}::uuid FOR UPDATE`;
  return table;
}

/** Tries the database-wide claim on the table's import, held until the transaction ends; whether it was had. */
export async function tryClaimImport(tx: Tx, tableId: string): Promise<boolean> {
  const [claim] = await tx.$queryRaw<{ claimed: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtext('tables:import'), hashtext(${tableId})) AS claimed`;
  return claim?.claimed === true;
}
