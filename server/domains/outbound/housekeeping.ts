/**
 * Outbound content is kept only while it may still be needed: once an item is finished (sent,
 * cancelled, rejected, gone, or failed for good) its bodies and attachment references are dropped
 * after `OUTBOUND_CONTENT_RETENTION_DAYS`. The row (subject, recipients, states) and its journal
 * stay; reading the content afterwards answers `review.content_gone`.
 */
import { config } from '../../core/config';
import { db } from '../../core/db';

const finished = `(send_status IN ('done', 'cancelled', 'failed') OR review_status IN ('rejected', 'gone'))`;

export async function purgeOutboundContent(now = new Date(), retentionDays = config().OUTBOUND_CONTENT_RETENTION_DAYS): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 86_400_000);
  let total = 0;
  // In batches, so a large backlog never holds one long transaction.
  for (;;) {
    const purged = await db().$executeRawUnsafe(
      `UPDATE outbound_messages SET body_text = NULL, body_html = NULL, attachments = '[]'::jsonb, content_purged_at = $2
       WHERE id IN (SELECT id FROM outbound_messages WHERE content_purged_at IS NULL AND updated_at < $1 AND ${finished} LIMIT 1000)`,
      before,
      now,
    );
    total += purged;
    if (purged < 1000) return total;
  }
}
