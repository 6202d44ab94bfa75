/**
 * The notification feed's queries, always scoped to one member. Archived notifications are kept (until
 * housekeeping purges them) but never read back by the feed.
 */
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';

type Reader = Pick<Tx, 'notification'>;

/** Newest first, strictly after `after`, archived left out; `take` rows at most. */
export function findFeed(memberId: string, filter: { unreadOnly: boolean }, after: CursorPosition | null, take: number) {
  return db().notification.findMany({
    where: {
      memberId,
      archivedAt: null,
      ...(filter.unreadOnly ? { readAt: null } : {}),
      ...afterCursor('createdAt', after),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export function countUnread(memberId: string, tx: Reader = db()): Promise<number> {
  return tx.notification.count({ where: { memberId, archivedAt: null, readAt: null } });
}

/** The member's notification (archived ones included); another member's is 404 `request.not_found`, never 403. */
export async function findOwnedOrThrow(memberId: string, id: string, tx: Reader = db()) {
  const row = await tx.notification.findFirst({ where: { id, memberId } });
  if (!row) throw appError('request.not_found', { message: 'No such notification.' });
  return row;
}

/** A new notification; answers its id. */
export function insertNotification(tx: Pick<Tx, 'notification'>, data: { memberId: string; kind: string; severity: string; params: object; link: string | null }) {
  return tx.notification.create({ data, select: { id: true } });
}

/** Marks the member's notification read if it is unread (the first date stays); answers how many changed (0 or 1). */
export function markReadIfUnread(tx: Tx, memberId: string, id: string) {
  return tx.notification.updateMany({ where: { id, memberId, readAt: null }, data: { readAt: new Date() } });
}

export function findByIdOrThrow(tx: Tx, id: string) {
  return tx.notification.findUniqueOrThrow({ where: { id } });
}

/** Marks every unread, not archived notification of the member read; answers how many changed. */
export function markAllUnreadRead(tx: Tx, memberId: string) {
  return tx.notification.updateMany({ where: { memberId, readAt: null, archivedAt: null }, data: { readAt: new Date() } });
}

/** Archives the member's notification if it is not yet; answers how many changed (0 or 1). */
export function archiveIfNot(tx: Tx, memberId: string, id: string) {
  return tx.notification.updateMany({ where: { id, memberId, archivedAt: null }, data: { archivedAt: new Date() } });
}
