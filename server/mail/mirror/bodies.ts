/**
 * The body pass's queue: rows a large initial sync listed from their header (`body_pending`, see
 * ../provider.ts `headersFirstAbove`), newest first, read through the partial index that holds only them.
 * The adapter fetches their sources and the writer fills them (./writer.ts `fillBodies`).
 */
import { db } from '../../core/db';
import type { PendingBody } from '../provider';

export async function pendingBodies(mailboxId: string, limit: number): Promise<PendingBody[]> {
  const rows = await db().$queryRawUnsafe<{ id: string; provider_key: string }[]>(
    `SELECT id, provider_key FROM mail_messages WHERE mailbox_id = $1::uuid AND body_pending ORDER BY received_at DESC LIMIT $2`,
    mailboxId,
    limit,
  );
  return rows.map((row) => ({ id: row.id, providerKey: row.provider_key }));
}
