/**
 * The webmail's compose (ours: the spec leaves compose "not shown"): a new message, a reply, a reply
 * to all or a forward, made through `createOutbound` like every outbound item. It leaves after the
 * undo window (SEND_UNDO_SECONDS: `notBefore`, the send job's run time) unless the member sends it
 * to the review queue instead; `clientToken` makes a repeated request the same message.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { config } from '../../core/config';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { isUniqueViolation } from '../../core/db/sql-state';
import { appError } from '../../core/errors/app-error';
import { jobKeys } from '../../core/jobs/catalogue';
import type { OutboundMessage } from '../../generated/prisma/client';
import { appendSignature, signatureFor } from '../contacts';
import { createOutbound, type OutboundAttachment } from '../outbound';
import { presentReviewItem } from '../review';
import { answerContext, answerSubject, uniqueAddresses, type AnswerMode } from './context';
import { isUuid } from '../../core/ids';
import { cancelSendForUndo, findByDedupeKey, findOutboundOrThrow, lockWebmailSend, memberAttachmentExists, memberMailbox, memberOriginal, usableUpload } from './repo';
import { maxComposeAttachments, type SendMessageInput } from './schemas';

/** The compose's dedupe key: the member's client token, in its own namespace. */
export const composeDedupeKey = (clientToken: string) => `webmail:${clientToken}`;

function undoUntilOf(item: OutboundMessage): string | null {
  return item.reviewStatus === 'none' && item.sendStatus === 'pending' && item.notBefore ? item.notBefore.toISOString() : null;
}

async function attachmentsOf(tx: Tx, memberId: string, input: SendMessageInput, forwarded: { messageId: string; position: number }[], now: Date): Promise<OutboundAttachment[]> {
  const chosen: OutboundAttachment[] = [];
  const seen = new Set<string>();
  for (const ref of input.attachments) {
    if ('uploadId' in ref) {
      const key = `upload:${ref.uploadId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const state = await usableUpload(tx, memberId, ref.uploadId, now);
      if (state === 'missing') throw appError('request.not_found', { message: 'No such upload (or it expired).', details: { reason: 'upload_not_found', uploadId: ref.uploadId } });
      if (state === 'used') throw appError('webmail.bad_request', { message: 'This upload is already attached to another message.', details: { reason: 'upload_used', uploadId: ref.uploadId } });
      chosen.push({ source: 'upload', uploadId: ref.uploadId });
    } else {
      const key = `message:${ref.messageId}:${ref.position}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!(await memberAttachmentExists(tx, memberId, ref.messageId, ref.position))) {
        throw appError('webmail.message_not_found', { message: 'No such message attachment.', details: { reason: 'attachment_not_found' } });
      }
      chosen.push({ source: 'message', messageId: ref.messageId, position: ref.position });
    }
  }
  for (const ref of forwarded) {
    const key = `message:${ref.messageId}:${ref.position}`;
    if (seen.has(key)) continue;
    seen.add(key);
    chosen.push({ source: 'message', messageId: ref.messageId, position: ref.position });
  }
  if (chosen.length > maxComposeAttachments) {
    throw appError('webmail.bad_request', { message: `At most ${maxComposeAttachments} attachments.`, details: { reason: 'too_many_attachments', limit: maxComposeAttachments } });
  }
  return chosen;
}

async function composeIn(tx: Tx, actor: AuthenticatedActor, input: SendMessageInput, now: Date) {
  const memberId = actor.member.id;
  const dedupeKey = composeDedupeKey(input.clientToken);
  const existing = await findByDedupeKey(tx, memberId, dedupeKey);
  if (existing) {
    if (existing.mailboxId !== input.mailboxId) {
      throw appError('webmail.bad_request', { message: 'This clientToken was already used for another request.', details: { reason: 'client_token_reused' } });
    }
    return { message: presentReviewItem(existing), undoUntil: undoUntilOf(existing) };
  }
  const mailbox = await memberMailbox(tx, memberId, input.mailboxId);
  if (!mailbox) throw appError('mailbox.not_found');
  if (mailbox.status !== 'active') throw appError('mailbox.not_active', { details: { status: mailbox.status } });

  const to = uniqueAddresses(input.to);
  const cc = uniqueAddresses(input.cc, to);
  const bcc = uniqueAddresses(input.bcc, [...to, ...cc]);
  if (to.length + cc.length + bcc.length === 0) {
    throw appError('webmail.bad_request', { message: 'Add at least one recipient.', details: { reason: 'no_recipient' } });
  }

  let subject = input.subject;
  let forwarded: { messageId: string; position: number }[] = [];
  if (input.inReplyTo) {
    const original = await memberOriginal(tx, memberId, input.inReplyTo.messageId);
    if (!original) throw appError('webmail.message_not_found');
    if (original.mailboxId !== mailbox.id) {
      throw appError('webmail.bad_request', { message: 'The message answered is in another mailbox.', details: { reason: 'other_mailbox' } });
    }
    subject ??= answerSubject(original.subject, input.inReplyTo.mode);
    if (input.inReplyTo.mode === 'forward' && input.inReplyTo.includeAttachments) {
      forwarded = original.attachments.map((attachment) => ({ messageId: original.id, position: attachment.position }));
    }
  }
  const attachments = await attachmentsOf(tx, memberId, input, forwarded, now);
  // The address book's signature (issue 22), asked for by the webmail's compose. Once: a repeated
  // request answers the item made first (above), and a body already carrying it is left as it is.
  let bodies = { bodyText: input.bodyText ?? null, bodyHtml: input.bodyHtml ?? null };
  if (input.signature) {
    const signature = await signatureFor({ memberId, mailboxId: mailbox.id, address: (to[0] ?? cc[0] ?? bcc[0])! }, tx);
    if (signature) bodies = appendSignature(bodies, signature);
  }
  const window = config().SEND_UNDO_SECONDS;
  const notBefore = !input.review && window > 0 ? new Date(now.getTime() + window * 1000) : null;
  const { item } = await createOutbound(
    {
      memberId,
      mailboxId: mailbox.id,
      mode: 'send',
      origin: 'webmail',
      review: input.review,
      to,
      cc,
      bcc,
      subject: subject ?? '',
      bodyText: bodies.bodyText,
      bodyHtml: bodies.bodyHtml,
      attachments,
      related: input.inReplyTo ? { messageId: input.inReplyTo.messageId, relation: input.inReplyTo.mode } : null,
      notBefore,
      dedupeKey,
    },
    tx,
  );
  return { message: presentReviewItem(item), undoUntil: undoUntilOf(item) };
}

/** POST /api/v1/messages/send. */
export async function sendMessage(actor: AuthenticatedActor, input: SendMessageInput, now: Date = new Date()) {
  try {
    return await inRetriedTransaction((tx) => composeIn(tx, actor, input, now));
  } catch (error) {
    // Two requests with one token at once: the second met the unique index; its retry finds the first.
    if (isUniqueViolation(error)) return inRetriedTransaction((tx) => composeIn(tx, actor, input, now));
    throw error;
  }
}

/** POST /api/v1/messages/send/{id}/undo: cancels a webmail send still inside its undo window. */
export async function undoSend(actor: AuthenticatedActor, id: string, now: Date = new Date()) {
  const memberId = actor.member.id;
  return inRetriedTransaction(async (tx) => {
    if (!isUuid(id)) throw appError('webmail.message_not_found');
    if (!(await lockWebmailSend(tx, memberId, id))) throw appError('webmail.message_not_found');
    const item = await findOutboundOrThrow(tx, id);
    if (item.sendStatus === 'cancelled') return { message: presentReviewItem(item) };
    if (item.reviewStatus !== 'none' || item.sendStatus !== 'pending' || !item.notBefore || item.notBefore.getTime() <= now.getTime()) {
      throw appError('webmail.undo_expired', { details: { sendStatus: item.sendStatus } });
    }
    const updated = await cancelSendForUndo(tx, { id, memberId, mailboxId: item.mailboxId }, jobKeys.send(id));
    return { message: presentReviewItem(updated) };
  });
}

/** GET /api/v1/messages/{id}/reply-context: what the compose pane starts with. */
export async function replyContext(actor: AuthenticatedActor, input: { id: string; mode: AnswerMode }) {
  return inRetriedTransaction(async (tx) => {
    const original = await memberOriginal(tx, actor.member.id, input.id);
    if (!original) throw appError('webmail.message_not_found');
    return { mailboxId: original.mailboxId, ...answerContext(original, original.mailboxAddress, input.mode) };
  });
}
