/**
 * The one way to make an outbound message (spec: Review item): a workflow step, the webmail's compose
 * and an approval step all come here. The item is written with its threading headers (from the
 * message it answers or forwards) and a Message-ID chosen now, and, when it needs no review, the
 * send job is added in the same transaction (at `notBefore`, the undo window's end). A `dedupeKey`
 * makes a repeated request (a retried step, a resent compose) the same item.
 */
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import { emitToMember } from '../../core/realtime/emit';
import { enqueuePlaceDraft } from '../../mail/send/drafts';
import type { OutboundMessage } from '../../generated/prisma/client';
import { findByDedupeKey, insertOutbound, mailboxAddressOf, relatedMessageOf } from './repo';

export type OutboundMode = 'draft' | 'send';
export type OutboundOrigin = 'workflow' | 'webmail' | 'approval';
export type OutboundRelation = 'reply' | 'replyAll' | 'forward';

export type OutboundAttachment =
  | { source: 'upload'; uploadId: string }
  | { source: 'message'; messageId: string; position: number }
  | { source: 'blob'; blobKey: string; filename: string; mime: string; size: number };

export interface OutboundSource {
  executionId: string;
  workflowId: string;
  workflowName: string;
  nodeId: string;
  nodeType: string;
}

export interface OutboundInput {
  memberId: string;
  mailboxId: string;
  mode: OutboundMode;
  origin: OutboundOrigin;
  /** true: waits in the review queue (`pending`); false: goes out without review (`none`). */
  review: boolean;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject: string;
  bodyText?: string | null;
  bodyHtml?: string | null;
  attachments?: OutboundAttachment[];
  /** The mirrored message answered or forwarded (threading headers and thread come from it). */
  related?: { messageId: string; relation: OutboundRelation } | null;
  /** The send does not start before this instant (the webmail's undo window). */
  notBefore?: Date | null;
  source?: OutboundSource | null;
  approvalId?: string | null;
  dedupeKey?: string | null;
}

/** A Message-ID in the sender's domain, as RFC 5322 writes it (with its angle brackets). */
export function newMessageIdHeader(fromAddress: string): string {
  const domain = fromAddress.includes('@') ? fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase() : 'localhost';
  return `<${randomUUID()}@${/^[a-z0-9.-]{1,253}$/.test(domain) ? domain : 'localhost'}>`;
}

/** Threading of an answer: In-Reply-To is the original's Message-ID, References its chain plus it (RFC 5322 3.6.4). */
export function threadingOf(original: { messageIdHeader: string | null; references: string[]; inReplyTo: string | null }): {
  inReplyTo: string | null;
  references: string[];
} {
  if (!original.messageIdHeader) return { inReplyTo: null, references: [] };
  const chain = original.references.length > 0 ? original.references : original.inReplyTo ? [original.inReplyTo] : [];
  return { inReplyTo: original.messageIdHeader, references: [...chain.filter((id) => id !== original.messageIdHeader), original.messageIdHeader].slice(-50) };
}

/** Adds the send job of an item (at `runAt`, default now), keyed per item. */
export async function enqueueSend(outboundId: string, tx: Tx, runAt?: Date | null): Promise<void> {
  await enqueue('mail.send', { outboundId }, { jobKey: jobKeys.send(outboundId), runAt: runAt ?? undefined }, tx);
}

/**
 * Writes the item (and its send job when it needs no review). Answers `duplicate: true` with the
 * existing item when `dedupeKey` was used before by the member. The caller checks the mailbox is the
 * member's; `related` must be a message of that mailbox (else it is ignored for threading).
 */
export async function createOutbound(input: OutboundInput, tx: Tx): Promise<{ item: OutboundMessage; duplicate: boolean }> {
  if (input.dedupeKey) {
    const existing = await findByDedupeKey(tx, input.memberId, input.dedupeKey);
    if (existing) return { item: existing, duplicate: true };
  }
  const mailbox = await mailboxAddressOf(tx, input.mailboxId);
  const original = input.related ? await relatedMessageOf(tx, input.related.messageId, input.mailboxId) : null;
  const threading = original && input.related?.relation !== 'forward' ? threadingOf(original) : { inReplyTo: null, references: [] };
  const data = {
    memberId: input.memberId,
    mailboxId: input.mailboxId,
    mailboxAddress: mailbox.address,
    mode: input.mode,
    origin: input.origin,
    reviewStatus: input.review ? 'pending' : 'none',
    sendStatus: 'pending',
    notBefore: input.notBefore ?? null,
    toAddrs: input.to,
    ccAddrs: input.cc ?? [],
    bccAddrs: input.bcc ?? [],
    subject: input.subject,
    bodyText: input.bodyText ?? null,
    bodyHtml: input.bodyHtml ?? null,
    attachments: (input.attachments ?? []) as object[],
    relatedMessageId: original?.id ?? null,
    relation: original ? (input.related?.relation ?? null) : null,
    inReplyTo: threading.inReplyTo,
    references: threading.references,
    messageIdHeader: newMessageIdHeader(mailbox.address),
    threadId: original && input.related?.relation !== 'forward' ? original.threadId : null,
    executionId: input.source?.executionId ?? null,
    workflowId: input.source?.workflowId ?? null,
    workflowName: input.source?.workflowName ?? null,
    nodeId: input.source?.nodeId ?? null,
    nodeType: input.source?.nodeType ?? null,
    approvalId: input.approvalId ?? null,
    dedupeKey: input.dedupeKey ?? null,
  };
  // Two concurrent requests with one key: the second meets the unique index (dedupe_key) and its
  // transaction fails; callers retry it (core/db/retry.ts) and then find the first item above.
  const item = await insertOutbound(tx, data);
  if (!input.review) await enqueueSend(item.id, tx, input.notBefore);
  // The review queue and the webmail re-read on it (a draft a workflow just prepared appears live).
  await emitToMember(item.memberId, 'outbound.changed', { outboundId: item.id, mailboxId: item.mailboxId, reviewStatus: item.reviewStatus, sendStatus: item.sendStatus }, tx);
  if (input.mode === 'draft' && input.review) await enqueuePlaceDraft(item.id, tx);
  return { item, duplicate: false };
}
