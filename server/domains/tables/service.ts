/**
 * Shared tables: structure (this module) for the whole team. Administrators create and change
 * tables; every member reads them. Structure changes take one advisory lock, so the table count,
 * slug uniqueness and the ceilings hold under concurrent requests.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { buildColumns } from './columns/build';
import { tableLimits } from './limits';
import { slugFromName } from './naming';
import { presentTable } from './present';
import { countTables, deleteTableRow, findTableOrThrow, freeSlug, insertTable, isSlugTaken, listAllTables, lockStructure, updateTable } from './repo';
import { applyKeyUnique } from './rows/row-rewrite';
import { assignSlots, storedTypedSlots } from './rows/typed-slots';
import type { ColumnInput } from './schemas';

export { tableLimits };

export async function listTables() {
  return { tables: (await listAllTables()).map(presentTable) };
}

export async function getTable(ref: string) {
  return { table: presentTable(await findTableOrThrow(ref)) };
}

export interface CreateTableInput {
  name: string;
  slug?: string;
  description?: string | null;
  columns: ColumnInput[];
  keyUnique: boolean;
}

/** In its own transaction, or in the caller's (`outer`: a template install creating the table it needs). */
export async function createTable(actor: AuthenticatedActor, input: CreateTableInput, ip: string | null, outer?: Tx) {
  const limits = tableLimits();
  const columns = buildColumns(input.columns, limits);
  const create = async (tx: Tx) => {
    await lockStructure(tx);
    if ((await countTables(tx)) >= limits.maxTables) {
      throw appError('tables.limit_reached', { details: { limit: 'maxTables', value: limits.maxTables } });
    }
    if (input.slug && (await isSlugTaken(tx, input.slug))) {
      throw appError('tables.duplicate_slug', { details: { slug: input.slug } });
    }
    const table = await insertTable(tx, {
      name: input.name,
      slug: input.slug ?? (await freeSlug(tx, slugFromName(input.name))),
      description: input.description ?? null,
      keyUnique: input.keyUnique,
      columns: columns as never,
      typedSlots: storedTypedSlots(assignSlots(columns, new Map())),
      createdById: actor.member.id,
    });
    await recordAudit(auditByOf(actor), { action: 'table.created', targetKind: 'table', targetId: table.id, details: { slug: table.slug, columns: columns.length }, ip }, tx);
    return { table: presentTable(table) };
  };
  return outer ? create(outer) : db().$transaction(create);
}

export interface PatchTableInput {
  id: string;
  name?: string;
  slug?: string;
  description?: string | null;
  keyUnique?: boolean;
}

export async function patchTable(actor: AuthenticatedActor, input: PatchTableInput, ip: string | null) {
  return db().$transaction(async (tx) => {
    await lockStructure(tx);
    const table = await findTableOrThrow(input.id, tx);
    if (input.slug && input.slug !== table.slug && (await isSlugTaken(tx, input.slug))) {
      throw appError('tables.duplicate_slug', { details: { slug: input.slug } });
    }
    const changes = Object.fromEntries(
      (['name', 'slug', 'description', 'keyUnique'] as const)
        .filter((field) => input[field] !== undefined && input[field] !== table[field])
        .map((field) => [field, input[field]]),
    );
    if (Object.keys(changes).length === 0) return { table: presentTable(table) };
    if (input.keyUnique !== undefined && input.keyUnique !== table.keyUnique) await applyKeyUnique(tx, table.id, input.keyUnique);
    const updated = await updateTable(tx, table.id, changes);
    await recordAudit(auditByOf(actor), { action: 'table.updated', targetKind: 'table', targetId: table.id, details: { changed: Object.keys(changes) }, ip }, tx);
    return { table: presentTable(updated) };
  });
}

export async function deleteTable(actor: AuthenticatedActor, ref: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    await lockStructure(tx);
    const table = await findTableOrThrow(ref, tx);
    await deleteTableRow(tx, table.id);
    await recordAudit(auditByOf(actor), { action: 'table.deleted', targetKind: 'table', targetId: table.id, details: { slug: table.slug, rowCount: table.rowCount }, ip }, tx);
    return { table: presentTable(table) };
  });
}
