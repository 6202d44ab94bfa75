/**
 * The templates domain's queries. What a caller may see: a member, the enabled templates; an
 * administrator, every template. An id that names none of those (malformed, unknown, disabled for a
 * member) is one 404 `templates.not_found`.
 */
import type { Prisma, Template } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { isUuid } from '../../core/ids';

export type Viewer = { admin: boolean };

const visibleTo = (viewer: Viewer) => (viewer.admin ? {} : { enabled: true });

/** By name (then newest first among equal names). */
export function listVisible(viewer: Viewer, tx: Tx = db()): Promise<Template[]> {
  return tx.template.findMany({ where: visibleTo(viewer), orderBy: [{ name: 'asc' }, { createdAt: 'desc' }, { id: 'asc' }] });
}

export async function findVisibleOrThrow(viewer: Viewer, id: string, tx: Tx = db()): Promise<Template> {
  const template = isUuid(id) ? await tx.template.findFirst({ where: { id: id.toLowerCase(), ...visibleTo(viewer) } }) : null;
  if (!template) throw appError('templates.not_found');
  return template;
}

/** Any template (administration), under FOR UPDATE: concurrent changes of one template serialise. */
export async function lockOrThrow(id: string, tx: Tx): Promise<Template> {
  if (!isUuid(id)) throw appError('templates.not_found');
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM templates WHERE id = ${id.toLowerCase()}::uuid FOR UPDATE`;
  const template = rows.length ? await tx.template.findUnique({ where: { id: rows[0].id } }) : null;
  if (!template) throw appError('templates.not_found');
  return template;
}

export function insertTemplate(data: Prisma.TemplateUncheckedCreateInput, tx: Tx): Promise<Template> {
  return tx.template.create({ data });
}

export function updateTemplateRow(id: string, data: Prisma.TemplateUncheckedUpdateInput, tx: Tx): Promise<Template> {
  return tx.template.update({ where: { id }, data });
}

export async function deleteTemplateRow(id: string, tx: Tx): Promise<void> {
  await tx.template.delete({ where: { id } });
}

/** One more installation of the template (the catalogue's "installed N times"). */
export async function countInstall(id: string, tx: Tx): Promise<void> {
  await tx.template.update({ where: { id }, data: { installCount: { increment: 1 } } });
}

/** The enabled templates among these slugs (the analyzer's starter proposals name them). */
export function findEnabledBySlugs(slugs: string[]) {
  return db().template.findMany({ where: { slug: { in: slugs }, enabled: true }, select: { id: true, slug: true, name: true, graph: true } });
}
