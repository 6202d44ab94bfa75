/** The OAuth domain's purge, run by the runner's cron task (and tests; `now` places rows either side of the boundary). */
import { db } from '../../core/db';

/** A flow is kept a day past its expiry, so a late callback still finds it and answers `oauth.state_invalid`. */
export const endedFlowRetentionMs = 24 * 60 * 60 * 1000;

/** OAuth flows (started connections) expired more than a day ago, used or not. */
export async function purgeEndedOAuthFlows(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - endedFlowRetentionMs);
  const { count } = await db().oAuthFlow.deleteMany({ where: { expiresAt: { lt: before } } });
  return count;
}
