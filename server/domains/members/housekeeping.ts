/** The members domain's purges, run by the runner's cron tasks (and tests; `now` places rows either side of a boundary). */
import { db } from '../../core/db';

const day = 24 * 60 * 60 * 1000;

/** Expired, never accepted invitations keep showing as `expired: true` for this long. */
export const expiredInvitationRetentionMs = 30 * day;

/** Invitations never accepted and expired for more than 30 days. */
export async function purgeStaleInvitations(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - expiredInvitationRetentionMs);
  const { count } = await db().invitation.deleteMany({ where: { acceptedAt: null, expiresAt: { lt: before } } });
  return count;
}
