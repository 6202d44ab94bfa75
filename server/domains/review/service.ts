/**
 * The morning review (spec: Morning review and sending journal): the member's queue of drafts and
 * sends waiting for a human, and the decisions on them (send.ts: sending; decide.ts: reject, snooze, resolve). A send is recorded here (the item's review
 * state flips to `sent` and its `mail.send` job is added in the same transaction), never delivered
 * here: the send pipeline (server/domains/outbound/send) does that, and writes the journal's attempts.
 *
 * Every read and write is scoped to the member: another member's item is `review.not_found`, the
 * same answer as an id that never existed.
 */
import { createHash } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { sanitizeCached } from '../../mail/sanitize/sanitize-pool';
import type { OutboundMessage } from '../../generated/prisma/client';
import { resolveContacts } from '../contacts';
import { contentGone, notFound, presentOne } from './guards';
import { presentReviewItem } from './item';
import { attachmentsOf, countPending, findOwnItem, findQueuePage, sentCopiesOf, wakeSnoozed } from './repo';
import type { ListReviewInput } from './schemas';

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
  const [message, attachments, recipientCards] = await Promise.all([presentOne(item), attachmentsOf(memberId, item.mailboxId, item.attachments), recipientCardsOf(memberId, item)]);
  return {
    message,
    cc: item.ccAddrs,
    bcc: item.bccAddrs,
    recipientCards,
    ...(item.bodyText != null ? { bodyText: item.bodyText } : {}),
    ...(bodyHtml != null ? { bodyHtml } : {}),
    hasRemoteImages,
    attachments,
    relatedMessage: relatedMessageOf(item),
  };
}

/** Recipients whose card the detail shows (To, Cc, then Bcc): the reviewer reads names, not 300 cards. */
const maxRecipientCards = 50;

/**
 * Who the draft goes to as the address book says (issue 22): each recipient's display name and
 * status from the sending mailbox's point of view, in one fixed set of queries whatever the count.
 */
async function recipientCardsOf(memberId: string, item: OutboundMessage) {
  const addresses = [...item.toAddrs, ...item.ccAddrs, ...item.bccAddrs].slice(0, maxRecipientCards);
  const cards = await resolveContacts({ memberId, mailboxId: item.mailboxId, addresses });
  return cards.map((card) => ({ address: card.address, displayName: card.resolved.displayName, status: card.resolved.status }));
}

const relations = new Set(['reply', 'replyAll', 'forward'] as const);

/** The message the item answers: shown beside the draft in the review (issue 19 §7). */
function relatedMessageOf(item: OutboundMessage): { id: string; relation: 'reply' | 'replyAll' | 'forward' } | null {
  if (!item.relatedMessageId) return null;
  const relation = relations.has(item.relation as never) ? (item.relation as 'reply' | 'replyAll' | 'forward') : 'reply';
  return { id: item.relatedMessageId, relation };
}
