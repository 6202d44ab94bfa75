/**
 * The tables domain's purges, run by the runner's cron tasks (and by tests). `now` is a parameter so
 * tests can place rows on either side of the boundary.
 */
import { db } from '../../core/db';

const day = 24 * 60 * 60 * 1000;

/**
 * A table write's effect record answers a retried workflow step instead of writing twice: kept far
 * longer than any step is retried or an execution replayed.
 */
export const tableWriteEffectRetentionMs = 30 * day;

/** Table write effect records older than 30 days (no step retries that late). */
export async function purgeOldTableWriteEffects(now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - tableWriteEffectRetentionMs);
  const { count } = await db().tableWriteEffect.deleteMany({ where: { createdAt: { lt: before } } });
  return count;
}
