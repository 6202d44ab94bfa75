/** The member's other decisions on a review item: reject, snooze, resolve an unknown send. */
import type { AuthenticatedActor } from '../../core/auth/access';
import { inRetriedTransaction } from '../../core/db/retry';
import { appError } from '../../core/errors/app-error';
import { enqueueSend } from '../outbound';
import type { Prisma } from '../../generated/prisma/client';
import { announce, badRequest, contentGone, notFound, presentOne, throwBlocker } from './guards';
import { journalDecision, lockOwnItem, openStatuses, updateItem } from './repo';
import { reviewLimits } from './schemas';
import { removeDraftCopy } from './send';

export async function rejectReviewItem(actor: AuthenticatedActor, input: { id: string; reason?: string }) {
  const memberId = actor.member.id;
  const reason = input.reason?.trim() || null;
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    // Rejecting needs no content: a purged pending item can still be rejected; a gone one cannot.
    if (!current || !openStatuses.includes(current.reviewStatus)) throwBlocker(current);
    const updated = await updateItem(tx, current!.id, { reviewStatus: 'rejected', reviewReason: reason, reviewAt: new Date(), snoozeUntil: null, sendStatus: 'cancelled' });
    await journalDecision(tx, { memberId, outboundId: updated.id, mailboxId: updated.mailboxId, event: 'rejected', reason });
    await removeDraftCopy(updated, tx);
    await announce(updated, tx);
    return updated;
  });
  return { message: await presentOne(item) };
}

export async function snoozeReviewItem(actor: AuthenticatedActor, input: { id: string; until: string }) {
  const memberId = actor.member.id;
  const until = new Date(input.until);
  const now = Date.now();
  if (!(until.getTime() > now)) throw badRequest('until', 'not_future', 'Snooze until a moment in the future.');
  if (until.getTime() > now + reviewLimits.snoozeMaxDays * 86_400_000) throw badRequest('until', 'too_far', `Snooze for ${reviewLimits.snoozeMaxDays} days at most.`);
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    throwBlocker(current);
    const updated = await updateItem(tx, current.id, { reviewStatus: 'snoozed', snoozeUntil: until });
    await announce(updated, tx);
    return updated;
  });
  return { message: await presentOne(item) };
}

/**
 * The member's verdict on a send whose outcome is unknown (its runner died mid-send): `sent` marks it
 * done without sending; `resend` sends it again. Either is kept in the journal (`resolved`).
 */
export async function resolveReviewItem(actor: AuthenticatedActor, input: { id: string; verdict: 'sent' | 'resend' }) {
  const memberId = actor.member.id;
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    if (!current) throw notFound();
    if (current.sendStatus !== 'unknown') {
      throw appError('review.not_unknown', { message: 'Only a send whose outcome is unknown can be resolved.', details: { sendStatus: current.sendStatus } });
    }
    if (input.verdict === 'resend' && (current.contentPurgedAt || current.reviewStatus === 'gone')) throw contentGone();
    const data: Prisma.OutboundMessageUpdateInput =
      input.verdict === 'sent'
        ? { sendStatus: 'done', sendRunnerId: null, sendErrorKind: null, sendErrorMessage: null }
        : { sendStatus: 'pending', sendRunnerId: null, sendStartedAt: null, sendErrorKind: null, sendErrorMessage: null, nextAttemptAt: null, notBefore: null };
    const updated = await updateItem(tx, current.id, data);
    await journalDecision(tx, { memberId, outboundId: updated.id, mailboxId: updated.mailboxId, event: 'resolved', result: input.verdict });
    if (input.verdict === 'resend') await enqueueSend(updated.id, tx);
    await announce(updated, tx);
    return updated;
  });
  return { message: await presentOne(item) };
}
