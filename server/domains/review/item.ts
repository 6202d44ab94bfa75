/**
 * The spec's Review item (a draft or send awaiting review, or one that went out without review): its
 * schema and the one mapping from an outbound row. Shared by the review queue, the webmail's compose
 * answers and the sending journal. `messageId` is the mirrored sent copy, found by its Message-ID
 * once the mailbox's sync has seen it.
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import type { OutboundMessage } from '../../generated/prisma/client';

export const reviewModes = ['draft', 'send'] as const;
export const reviewOrigins = ['workflow', 'webmail', 'approval'] as const;
export const reviewStatuses = ['none', 'pending', 'sent', 'rejected', 'snoozed', 'gone'] as const;
export const sendStatuses = ['pending', 'held', 'running', 'done', 'failed', 'cancelled', 'unknown'] as const;
export type ReviewStatus = (typeof reviewStatuses)[number];
export type SendStatus = (typeof sendStatuses)[number];

export const reviewItemSchema = z
  .object({
    id: z.string(),
    mailboxId: z.string(),
    mailboxAddress: z.string(),
    mode: z.enum(reviewModes),
    origin: z.enum(reviewOrigins),
    recipients: z.array(z.string()).describe('To, then Cc (Bcc is only in the detail).'),
    subject: z.string(),
    createdAt: isoDateTime,
    reviewStatus: z.enum(reviewStatuses),
    reviewReason: z.string().optional(),
    reviewAt: isoDateTime.optional(),
    snoozeUntil: isoDateTime.optional(),
    sendStatus: z.enum(sendStatuses),
    sendErrorKind: z.string().optional(),
    executionId: z.string().optional(),
    workflowId: z.string().optional(),
    workflowName: z.string().optional(),
    nodeId: z.string().optional(),
    nodeType: z.string().optional(),
    messageIdHeader: z.string().optional(),
    messageId: z.string().optional().describe('The sent copy in the mirror, once synchronised.'),
    threadId: z.string().optional(),
  })
  .meta({ id: 'ReviewItem' });

export type ReviewItem = z.infer<typeof reviewItemSchema>;

/** Optional fields are absent rather than null (the spec types them as strings, optional). */
export function presentReviewItem(row: OutboundMessage, sentCopy?: { id: string; threadId: string | null } | null): ReviewItem {
  const optional = <K extends string>(key: K, value: string | null | undefined) => (value == null ? {} : ({ [key]: value } as Record<K, string>));
  return {
    id: row.id,
    mailboxId: row.mailboxId,
    mailboxAddress: row.mailboxAddress,
    mode: row.mode as ReviewItem['mode'],
    origin: row.origin as ReviewItem['origin'],
    recipients: [...row.toAddrs, ...row.ccAddrs],
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    reviewStatus: row.reviewStatus as ReviewStatus,
    ...optional('reviewReason', row.reviewReason),
    ...optional('reviewAt', row.reviewAt?.toISOString()),
    ...optional('snoozeUntil', row.reviewStatus === 'snoozed' ? row.snoozeUntil?.toISOString() : null),
    sendStatus: row.sendStatus as SendStatus,
    ...optional('sendErrorKind', row.sendErrorKind),
    ...optional('executionId', row.executionId),
    ...optional('workflowId', row.workflowId),
    ...optional('workflowName', row.workflowName),
    ...optional('nodeId', row.nodeId),
    ...optional('nodeType', row.nodeType),
    ...optional('messageIdHeader', row.messageIdHeader),
    ...optional('messageId', sentCopy?.id),
    ...optional('threadId', sentCopy?.threadId ?? row.threadId),
  };
}
