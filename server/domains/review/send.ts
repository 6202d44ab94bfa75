/** Sending reviewed items: one (with the member's corrections) or a batch; the send itself is the pipeline's. */
import type { AuthenticatedActor } from '../../core/auth/access';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { isUuid } from '../../core/ids';
import { enqueueRemoveDraft } from '../../mail/send/drafts';
import type { OutboundMessage, Prisma } from '../../generated/prisma/client';
import { enqueueSend } from '../outbound';
import { announce, badRequest, blockerOf, presentOne, throwBlocker } from './guards';
import { countPending, lockOwnItem, lockOwnItems, updateItem, wakeSnoozed } from './repo';
import type { ReviewSendInput } from './schemas';

/**
 * The corrections a send carries. A corrected body replaces the body: the other form is dropped
 * unless it is corrected too (a stale HTML next to a corrected text would be sent as the real one).
 */
function correctionsOf(item: OutboundMessage, input: ReviewSendInput): Prisma.OutboundMessageUpdateInput {
  const data: Prisma.OutboundMessageUpdateInput = {};
  if (input.subject !== undefined) data.subject = input.subject;
  if (input.bodyText !== undefined || input.bodyHtml !== undefined) {
    data.bodyText = input.bodyText ?? null;
    data.bodyHtml = input.bodyHtml ?? null;
  }
  const lower = (list: string[] | undefined) => (list === undefined ? undefined : [...new Set(list.map((address) => address.toLowerCase()))]);
  const to = lower(input.to) ?? item.toAddrs;
  const cc = lower(input.cc) ?? item.ccAddrs;
  const bcc = lower(input.bcc) ?? item.bccAddrs;
  if (input.to !== undefined) data.toAddrs = to;
  if (input.cc !== undefined) data.ccAddrs = cc;
  if (input.bcc !== undefined) data.bccAddrs = bcc;
  const count = to.length + cc.length + bcc.length;
  if (count === 0) throw badRequest('to', 'no_recipient', 'A message needs at least one recipient.');
  return data;
}

function releaseData(clientToken: string, now: Date): Prisma.OutboundMessageUpdateInput {
  return { reviewStatus: 'sent', reviewAt: now, sendStatus: 'pending', snoozeUntil: null, sendClientToken: clientToken };
}

/** A decided draft leaves the mailbox's Drafts folder (its copy there was placed for the member's own client). */
export async function removeDraftCopy(item: OutboundMessage, tx: Tx): Promise<void> {
  if (item.mode === 'draft') await enqueueRemoveDraft(item.id, tx);
}

export async function sendReviewItem(actor: AuthenticatedActor, input: ReviewSendInput) {
  const memberId = actor.member.id;
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    // The same decision again (a retried request): the same answer, nothing sent twice.
    if (current && current.reviewStatus === 'sent' && current.sendClientToken === input.clientToken) return current;
    throwBlocker(current);
    const updated = await updateItem(tx, current.id, { ...correctionsOf(current, input), ...releaseData(input.clientToken, new Date()) });
    await enqueueSend(updated.id, tx, updated.notBefore);
    await removeDraftCopy(updated, tx);
    await announce(updated, tx);
    return updated;
  });
  return { message: await presentOne(item) };
}

export async function sendReviewBatch(actor: AuthenticatedActor, input: { ids: string[]; clientToken: string }) {
  const memberId = actor.member.id;
  const ids = [...new Set(input.ids)];
  return inRetriedTransaction(async (tx) => {
    const rows = await lockOwnItems(
      tx,
      memberId,
      ids.filter((id) => isUuid(id)).map((id) => id.toLowerCase()),
    );
    const sent: string[] = [];
    const skipped: { id: string; reason: 'not_found' | 'already_resolved' | 'content_gone' }[] = [];
    const now = new Date();
    for (const id of ids) {
      const row = isUuid(id) ? rows.get(id.toLowerCase()) : undefined;
      if (row && row.reviewStatus === 'sent' && row.sendClientToken === input.clientToken) {
        sent.push(id);
        continue;
      }
      const blocker = blockerOf(row);
      if (blocker) {
        skipped.push({ id, reason: blocker });
        continue;
      }
      const updated = await updateItem(tx, row!.id, releaseData(input.clientToken, now));
      await enqueueSend(updated.id, tx, updated.notBefore);
      await removeDraftCopy(updated, tx);
      await announce(updated, tx);
      sent.push(id);
    }
    await wakeSnoozed(memberId, now, tx);
    return { sent, skipped, pendingCount: await countPending(memberId, {}, tx) };
  });
}
