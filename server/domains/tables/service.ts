/**
 * Shared tables: structure (this module) for the whole team. Administrators create and change
 * tables; every member reads them. Structure changes take one advisory lock, so the table count,
 * slug uniqueness and the ceilings hold under concurrent requests.
 */
import type { DataTable } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { config } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { buildColumns } from './columns';
import { firstFree, slugFromName } from './naming';
import { applyKeyUnique } from './row-rewrite';
import { assignSlots } from './typed-slots';
import { storedColumnsOf, type ColumnInput } from './schemas';

export function tableLimits() {
  const c = config();
  return { maxTables: c.TABLES_MAX_TABLES, maxColumns: c.TABLES_MAX_COLUMNS, maxRows: c.TABLES_MAX_ROWS, maxCellChars: c.TABLES_MAX_CELL_CHARS };
}

export function presentTable(table: DataTable) {
  return {
    id: table.id,
    slug: table.slug,
    name: table.name,
    description: table.description,
    columns: storedColumnsOf(table.columns),
    keyUnique: table.keyUnique,
    rowCount: table.rowCount,
    createdAt: iso(table.createdAt),
    updatedAt: iso(table.updatedAt),
  };
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** By id or by slug, as the routes accept either. */
export async function findTableOrThrow(ref: string, tx: Tx = db()): Promise<DataTable> {
  const table = await tx.dataTable.findUnique({ where: uuidShape.test(ref) ? { id: ref.toLowerCase() } : { slug: ref } });
  if (!table) throw appError('tables.not_found');
  return table;
}

async function lockStructure(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('tables:structure'))`;
}

async function freeSlug(tx: Tx, base: string): Promise<string> {
  const taken = await tx.dataTable.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } });
  return firstFree(base, new Set(taken.map((table) => table.slug)), '-');
}

export async function listTables() {
  const tables = await db().dataTable.findMany({ orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return { tables: tables.map(presentTable) };
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

export async function createTable(actor: AuthenticatedActor, input: CreateTableInput, ip: string | null) {
  const limits = tableLimits();
  const columns = buildColumns(input.columns, limits);
  return db().$transaction(async (tx) => {
    await lockStructure(tx);
    if ((await tx.dataTable.count()) >= limits.maxTables) {
      throw appError('tables.limit_reached', { details: { limit: 'maxTables', value: limits.maxTables } });
    }
    if (input.slug && (await tx.dataTable.findUnique({ where: { slug: input.slug } }))) {
      throw appError('tables.duplicate_slug', { details: { slug: input.slug } });
    }
    const table = await tx.dataTable.create({
      data: {
        name: input.name,
        slug: input.slug ?? (await freeSlug(tx, slugFromName(input.name))),
        description: input.description ?? null,
        keyUnique: input.keyUnique,
        columns: columns as never,
        typedSlots: assignSlots(columns, {}),
        createdById: actor.member.id,
      },
    });
    await recordAudit(auditByOf(actor), { action: 'table.created', targetKind: 'table', targetId: table.id, details: { slug: table.slug, columns: columns.length }, ip }, tx);
    return { table: presentTable(table) };
  });
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
    if (input.slug && input.slug !== table.slug && (await tx.dataTable.findUnique({ where: { slug: input.slug } }))) {
      throw appError('tables.duplicate_slug', { details: { slug: input.slug } });
    }
    const changes = Object.fromEntries(
      (['name', 'slug', 'description', 'keyUnique'] as const)
        .filter((field) => input[field] !== undefined && input[field] !== table[field])
        .map((field) => [field, input[field]]),
    );
    if (Object.keys(changes).length === 0) return { table: presentTable(table) };
    if (input.keyUnique !== undefined && input.keyUnique !== table.keyUnique) await applyKeyUnique(tx, table.id, input.keyUnique);
    const updated = await tx.dataTable.update({ where: { id: table.id }, data: changes });
    await recordAudit(auditByOf(actor), { action: 'table.updated', targetKind: 'table', targetId: table.id, details: { changed: Object.keys(changes) }, ip }, tx);
    return { table: presentTable(updated) };
  });
}

export async function deleteTable(actor: AuthenticatedActor, ref: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    await lockStructure(tx);
    const table = await findTableOrThrow(ref, tx);
    await tx.dataTable.delete({ where: { id: table.id } });
    await recordAudit(auditByOf(actor), { action: 'table.deleted', targetKind: 'table', targetId: table.id, details: { slug: table.slug, rowCount: table.rowCount }, ip }, tx);
    return { table: presentTable(table) };
  });
}
