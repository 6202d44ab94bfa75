/** The notifications domain's purge, run by the runner's cron task (and tests; `now` places rows either side of the boundary). */
import { db } from '../../core/db';

const day = 24 * 60 * 60 * 1000;

/** Archived notifications are kept this long (for support questions), then deleted. */
export const archivedNotificationRetentionMs = 90 * day;

/** Notifications archived more than 90 days ago. Unarchived ones stay, read or not. */
export async function purgeArchivedNotifications(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - archivedNotificationRetentionMs);
  const { count } = await db().notification.deleteMany({ where: { archivedAt: { lt: before } } });
  return count;
}
