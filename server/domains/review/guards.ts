/** What every review decision shares: its refusals, the blocker check, the realtime announce, the one-item answer. */
import type { Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { emitToMember } from '../../core/realtime/emit';
import type { OutboundMessage } from '../../generated/prisma/client';
import { presentReviewItem } from './item';
import { sentCopiesOf } from './repo';

export const notFound = () => appError('review.not_found', { message: 'No such review item.' });
export const contentGone = () => appError('review.content_gone', { message: 'The content of this review item is gone.' });
export const alreadyResolved = (item: OutboundMessage) =>
  appError('review.already_resolved', { message: 'This review item was already sent or rejected.', details: { reviewStatus: item.reviewStatus } });

export function badRequest(path: string, code: string, message: string) {
  return appError('review.bad_request', { message, details: { in: 'body', issues: [{ path, code, message }] } });
}

/** Why an item cannot be decided now, or null when it can. */
export function blockerOf(item: OutboundMessage | null | undefined): 'not_found' | 'already_resolved' | 'content_gone' | null {
  if (!item || item.reviewStatus === 'none') return 'not_found';
  if (item.reviewStatus === 'sent' || item.reviewStatus === 'rejected') return 'already_resolved';
  if (item.reviewStatus === 'gone' || item.contentPurgedAt) return 'content_gone';
  return null;
}

export function throwBlocker(item: OutboundMessage | null | undefined): asserts item is OutboundMessage {
  const blocker = blockerOf(item);
  if (blocker === 'not_found') throw notFound();
  if (blocker === 'already_resolved') throw alreadyResolved(item!);
  if (blocker === 'content_gone') throw contentGone();
}

export function announce(item: OutboundMessage, tx: Tx) {
  return emitToMember(item.memberId, 'outbound.changed', { outboundId: item.id, mailboxId: item.mailboxId, reviewStatus: item.reviewStatus, sendStatus: item.sendStatus }, tx);
}

export async function presentOne(item: OutboundMessage) {
  const copies = await sentCopiesOf([item]);
  return presentReviewItem(item, copies.get(item.id));
}
