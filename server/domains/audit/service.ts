/** Reading the audit log (administrators). */
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { presentAuditEntry } from './present';
import { findAuditEntries } from './repo';
import type { AuditQuery } from './schemas';

/** Most recent first; an unreadable cursor gives the first page, as the spec asks. */
export async function listAudit(query: AuditQuery) {
  const rows = await findAuditEntries(
    { action: query.action, actorMemberId: query.actor, since: query.since ? new Date(query.since) : undefined },
    decodeCursor(query.cursor),
    query.limit + 1,
  );
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.at);
  return { entries: items.map(presentAuditEntry), nextCursor };
}
