/** The auth domain's purges, run by the runner's cron tasks (and tests; `now` places rows either side of a boundary). */
import { db } from '../../core/db';

const day = 24 * 60 * 60 * 1000;

/** Ended sessions stay a day, so a member's session list can still show a just-ended one. */
export const endedSessionRetentionMs = day;

/** Sessions that expired or were revoked more than a day ago. */
export async function purgeEndedSessions(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - endedSessionRetentionMs);
  const { count } = await db().session.deleteMany({
    where: { OR: [{ expiresAt: { lt: before } }, { revokedAt: { lt: before } }] },
  });
  return count;
}
