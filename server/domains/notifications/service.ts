/**
 * The member's notification feed: list, mark read, mark all read, archive. Notifications are written
 * by `notify()` (./notify.ts) from wherever something happens. Every change that moves the unread
 * count tells the member's open browsers (`notification.unread`) in the same transaction.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db, type Tx } from '../../core/db';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { emitToMember } from '../../core/realtime/emit';
import { presentNotification } from './present';
import { archiveIfNot, countUnread, findByIdOrThrow, findFeed, findOwnedOrThrow, markAllUnreadRead, markReadIfUnread } from './repo';
import type { ListNotificationsQuery } from './schemas';

/** Newest first; an unreadable cursor gives the first page (as the audit log does). */
export async function listNotifications(actor: AuthenticatedActor, query: ListNotificationsQuery) {
  const memberId = actor.member.id;
  const [rows, unreadCount] = await Promise.all([
    findFeed(memberId, { unreadOnly: query.unread === 'true' }, decodeCursor(query.cursor), query.limit + 1),
    countUnread(memberId),
  ]);
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  return { items: items.map(presentNotification), nextCursor, unreadCount };
}

/** Counts unread after a change and, when the change touched anything, tells the member's browsers. */
async function announceUnread(memberId: string, changed: boolean, tx: Tx): Promise<number> {
  const unreadCount = await countUnread(memberId, tx);
  if (changed) await emitToMember(memberId, 'notification.unread', { unreadCount }, tx);
  return unreadCount;
}

/** Marks one notification read; reading it again keeps the first date. */
export async function markRead(actor: AuthenticatedActor, id: string) {
  const memberId = actor.member.id;
  return db().$transaction(async (tx) => {
    await findOwnedOrThrow(memberId, id, tx);
    const { count } = await markReadIfUnread(tx, memberId, id);
    const row = await findByIdOrThrow(tx, id);
    return { notification: presentNotification(row), unreadCount: await announceUnread(memberId, count > 0, tx) };
  });
}

/** Marks every unread, not archived notification of the member read. */
export async function markAllRead(actor: AuthenticatedActor) {
  const memberId = actor.member.id;
  return db().$transaction(async (tx) => {
    const { count } = await markAllUnreadRead(tx, memberId);
    return { updated: count, unreadCount: await announceUnread(memberId, count > 0, tx) };
  });
}

/** Archives one notification: it leaves the feed for good. Archiving again answers the same. */
export async function archive(actor: AuthenticatedActor, id: string) {
  const memberId = actor.member.id;
  return db().$transaction(async (tx) => {
    const row = await findOwnedOrThrow(memberId, id, tx);
    const { count } = await archiveIfNot(tx, memberId, id);
    // Only an unread notification leaving the feed moves the count.
    return { id, archived: true as const, unreadCount: await announceUnread(memberId, count > 0 && row.readAt === null, tx) };
  });
}
