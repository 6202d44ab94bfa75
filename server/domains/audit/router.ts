import { z } from 'zod';
import { db } from '../../core/db';
import { afterCursor, decodeCursor, limitParam, pageOf } from '../../core/http/cursor';
import { iso, isoDateTime } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';

const auditEntrySchema = z
  .object({
    id: z.uuid(),
    at: isoDateTime,
    actorKind: z.enum(['member', 'system', 'webhook']),
    actorMemberId: z.uuid().nullable(),
    action: z.string(),
    targetKind: z.string(),
    targetId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    ip: z.string().nullable(),
  })
  .meta({ id: 'AuditEntry' });

const auditQuery = z.object({
  action: z.string().min(1).max(120).optional(),
  actor: z.uuid().optional(),
  since: z.iso.datetime().optional(),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 200),
});

/** Most recent first; an unreadable cursor gives the first page, as the spec asks. */
async function listAudit(query: z.infer<typeof auditQuery>) {
  const rows = await db().auditEntry.findMany({
    where: {
      ...(query.action ? { action: query.action } : {}),
      ...(query.actor ? { actorMemberId: query.actor } : {}),
      ...(query.since ? { at: { gte: new Date(query.since) } } : {}),
      ...afterCursor('at', decodeCursor(query.cursor)),
    },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.at);
  return {
    entries: items.map((entry) => ({
      ...entry,
      at: iso(entry.at),
      details: (entry.details ?? {}) as Record<string, unknown>,
    })),
    nextCursor,
  };
}

export const auditRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/audit',
        access: { kind: 'scope', scope: 'admin:read', admin: true },
        tag: 'Audit',
        summary: { en: 'Read the audit log', fr: 'Consulter le journal d’audit' },
        description: {
          en: 'Entries most recent first, filtered by `action`, `actor` (member id) and `since`; cursor pagination (`limit` 1-200, default 50).',
          fr: 'Entrées des plus récentes aux plus anciennes, filtrées par `action`, `actor` (id du membre) et `since` ; pagination par curseur (`limit` 1-200, 50 par défaut).',
        },
      }),
    )
    .input(auditQuery)
    .output(z.object({ entries: z.array(auditEntrySchema), nextCursor: z.string().nullable() }))
    .query(({ input }) => listAudit(input)),
});
