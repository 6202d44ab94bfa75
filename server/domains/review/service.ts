/**
 * The morning review (spec: Morning review and sending journal): the member's queue of drafts and
 * sends waiting for a human, and the decisions on them. A send is recorded here (the item's review
 * state flips to `sent` and its `mail.send` job is added in the same transaction), never delivered
 * here: the send pipeline (server/domains/outbound/send) does that, and writes the journal's attempts.
 *
 * Every read and write is scoped to the member: another member's item is `review.not_found`, the
 * same answer as an id that never existed.
 */
import { createHash } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { appError } from '../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { sanitizeCached } from '../../mail/sanitize/sanitize-pool';
import { emitToMember } from '../../core/realtime/emit';
import type { OutboundMessage, Prisma } from '../../generated/prisma/client';
import { enqueueSend } from '../outbound';
import { enqueueRemoveDraft } from '../../mail/send/drafts';
import { presentReviewItem } from './item';
import { attachmentsOf, countPending, findOwnItem, findQueuePage, openStatuses, sentCopiesOf, wakeSnoozed } from './repo';
import { reviewLimits, type ListReviewInput, type ReviewSendInput } from './schemas';
import { isUuid } from '../../core/ids';

const notFound = () => appError('review.not_found', { message: 'No such review item.' });
const contentGone = () => appError('review.content_gone', { message: 'The content of this review item is gone.' });
const alreadyResolved = (item: OutboundMessage) =>
  appError('review.already_resolved', { message: 'This review item was already sent or rejected.', details: { reviewStatus: item.reviewStatus } });

function badRequest(path: string, code: string, message: string) {
  return appError('review.bad_request', { message, details: { in: 'body', issues: [{ path, code, message }] } });
}

/** Why an item cannot be decided now, or null when it can. */
function blockerOf(item: OutboundMessage | null | undefined): 'not_found' | 'already_resolved' | 'content_gone' | null {
  if (!item || item.reviewStatus === 'none') return 'not_found';
  if (item.reviewStatus === 'sent' || item.reviewStatus === 'rejected') return 'already_resolved';
  if (item.reviewStatus === 'gone' || item.contentPurgedAt) return 'content_gone';
  return null;
}

function throwBlocker(item: OutboundMessage | null | undefined): asserts item is OutboundMessage {
  const blocker = blockerOf(item);
  if (blocker === 'not_found') throw notFound();
  if (blocker === 'already_resolved') throw alreadyResolved(item!);
  if (blocker === 'content_gone') throw contentGone();
}

/** Locks the member's rows (one decision at a time per item), then reads them. */
async function lockOwnItems(tx: Tx, memberId: string, ids: string[]): Promise<Map<string, OutboundMessage>> {
  if (ids.length === 0) return new Map();
  await tx.$queryRaw`SELECT id FROM outbound_messages WHERE id = ANY(${ids}::uuid[]) AND member_id = ${memberId}::uuid ORDER BY id FOR UPDATE`;
  const rows = await tx.outboundMessage.findMany({ where: { id: { in: ids }, memberId } });
  return new Map(rows.map((row) => [row.id, row]));
}

async function lockOwnItem(tx: Tx, memberId: string, id: string) {
  return (await lockOwnItems(tx, memberId, [id])).get(id) ?? null;
}

function announce(item: OutboundMessage, tx: Tx) {
  return emitToMember(item.memberId, 'outbound.changed', { outboundId: item.id, mailboxId: item.mailboxId, reviewStatus: item.reviewStatus, sendStatus: item.sendStatus }, tx);
}

async function presentOne(item: OutboundMessage) {
  const copies = await sentCopiesOf([item]);
  return presentReviewItem(item, copies.get(item.id));
}

/** Newest first, keyset-paginated; an unreadable cursor gives the first page. */
export async function listReview(actor: AuthenticatedActor, query: ListReviewInput) {
  const memberId = actor.member.id;
  await wakeSnoozed(memberId, new Date());
  const [rows, pendingCount] = await Promise.all([findQueuePage(memberId, query, decodeCursor(query.cursor), query.limit + 1), countPending(memberId, query)]);
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  const copies = await sentCopiesOf(items);
  return { items: items.map((item) => presentReviewItem(item, copies.get(item.id))), nextCursor, pendingCount };
}

export async function getReviewItem(actor: AuthenticatedActor, input: { id: string; allowRemoteImages: boolean }) {
  const memberId = actor.member.id;
  const item = await findOwnItem(memberId, input.id);
  if (!item) throw notFound();
  if (item.reviewStatus === 'gone' || item.contentPurgedAt) throw contentGone();
  let bodyHtml: string | undefined;
  let hasRemoteImages = false;
  if (item.bodyHtml) {
    const key = `outbound:${item.id}:${createHash('sha256').update(item.bodyHtml).digest('base64url').slice(0, 22)}`;
    const sanitized = await sanitizeCached(key, item.bodyHtml, { allowRemoteImages: input.allowRemoteImages });
    bodyHtml = sanitized.html;
    hasRemoteImages = sanitized.hasRemoteImages;
  }
  const [message, attachments] = await Promise.all([presentOne(item), attachmentsOf(memberId, item.mailboxId, item.attachments)]);
  return {
    message,
    cc: item.ccAddrs,
    bcc: item.bccAddrs,
    ...(item.bodyText != null ? { bodyText: item.bodyText } : {}),
    ...(bodyHtml != null ? { bodyHtml } : {}),
    hasRemoteImages,
    attachments,
    relatedMessage: relatedMessageOf(item),
  };
}

const relations = new Set(['reply', 'replyAll', 'forward'] as const);

/** The message the item answers: shown beside the draft in the review (issue 19 §7). */
function relatedMessageOf(item: OutboundMessage): { id: string; relation: 'reply' | 'replyAll' | 'forward' } | null {
  if (!item.relatedMessageId) return null;
  const relation = relations.has(item.relation as never) ? (item.relation as 'reply' | 'replyAll' | 'forward') : 'reply';
  return { id: item.relatedMessageId, relation };
}

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
async function removeDraftCopy(item: OutboundMessage, tx: Tx): Promise<void> {
  if (item.mode === 'draft') await enqueueRemoveDraft(item.id, tx);
}

export async function sendReviewItem(actor: AuthenticatedActor, input: ReviewSendInput) {
  const memberId = actor.member.id;
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    // The same decision again (a retried request): the same answer, nothing sent twice.
    if (current && current.reviewStatus === 'sent' && current.sendClientToken === input.clientToken) return current;
    throwBlocker(current);
    const updated = await tx.outboundMessage.update({ where: { id: current.id }, data: { ...correctionsOf(current, input), ...releaseData(input.clientToken, new Date()) } });
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
      const updated = await tx.outboundMessage.update({ where: { id: row!.id }, data: releaseData(input.clientToken, now) });
      await enqueueSend(updated.id, tx, updated.notBefore);
      await removeDraftCopy(updated, tx);
      await announce(updated, tx);
      sent.push(id);
    }
    await wakeSnoozed(memberId, now, tx);
    return { sent, skipped, pendingCount: await countPending(memberId, {}, tx) };
  });
}

export async function rejectReviewItem(actor: AuthenticatedActor, input: { id: string; reason?: string }) {
  const memberId = actor.member.id;
  const reason = input.reason?.trim() || null;
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    // Rejecting needs no content: a purged pending item can still be rejected; a gone one cannot.
    if (!current || !openStatuses.includes(current.reviewStatus)) throwBlocker(current);
    const updated = await tx.outboundMessage.update({
      where: { id: current!.id },
      data: { reviewStatus: 'rejected', reviewReason: reason, reviewAt: new Date(), snoozeUntil: null, sendStatus: 'cancelled' },
    });
    await tx.sendingJournalEntry.create({ data: { memberId, outboundId: updated.id, mailboxId: updated.mailboxId, event: 'rejected', reason } });
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
  if (until.getTime() > now + reviewLimits.snoozeMaxDays * 86_400_000) throw badRequest('until', 'too_far', 'Snooze for 30 days at most.');
  const item = await inRetriedTransaction(async (tx) => {
    const current = await lockOwnItem(tx, memberId, input.id);
    throwBlocker(current);
    const updated = await tx.outboundMessage.update({ where: { id: current.id }, data: { reviewStatus: 'snoozed', snoozeUntil: until } });
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
    const updated = await tx.outboundMessage.update({ where: { id: current.id }, data });
    await tx.sendingJournalEntry.create({ data: { memberId, outboundId: updated.id, mailboxId: updated.mailboxId, event: 'resolved', result: input.verdict } });
    if (input.verdict === 'resend') await enqueueSend(updated.id, tx);
    await announce(updated, tx);
    return updated;
  });
  return { message: await presentOne(item) };
}
