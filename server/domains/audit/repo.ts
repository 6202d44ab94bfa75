/** The audit log's reads (entries are written by core/audit.ts, inside the transaction of each change). */
import { db } from '../../core/db';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';

export interface AuditFilter {
  action?: string;
  actorMemberId?: string;
  since?: Date;
}

/** Entries most recent first, strictly after `after`; `take` rows at most. */
export function findAuditEntries(filter: AuditFilter, after: CursorPosition | null, take: number) {
  return db().auditEntry.findMany({
    where: {
      ...(filter.action ? { action: filter.action } : {}),
      ...(filter.actorMemberId ? { actorMemberId: filter.actorMemberId } : {}),
      ...(filter.since ? { at: { gte: filter.since } } : {}),
      ...afterCursor('at', after),
    },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take,
  });
}
