/**
 * Inputs and answers of the morning review (spec: Morning review and sending journal) and the
 * sending journal. Bounds from the spec's Limits: review pages 25 by default, at most 100; the
 * sending journal 50 by default, at most 200; a batch send 1-50 ids.
 */
import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime, isoDateTimeInput } from '../../core/http/schemas';
import { reviewItemSchema } from './item';

export { reviewItemSchema };

export const reviewLimits = {
  pageDefault: 25,
  pageMax: 100,
  batchMax: 50,
  journalDefault: 50,
  journalMax: 200,
  snoozeMaxDays: 30,
  reasonMax: 1000,
  subjectMax: 500,
  bodyTextMax: 200_000,
  bodyHtmlMax: 400_000,
  recipientsMax: 100,
} as const;

export const reviewQueues = ['pending', 'snoozed', 'unknown', 'all'] as const;

const cursor = z.string().max(500).optional().describe('The `nextCursor` of the previous page (opaque; an unreadable one gives the first page).');
const clientToken = z.string().min(8).max(200).describe('Names this decision: sending it again answers the same without sending twice.');

export const listReviewInput = z.object({
  mailboxId: z.uuid().optional().describe('Only the items of this mailbox of yours.'),
  workflowId: z.uuid().optional().describe('Only the items prepared by this workflow.'),
  status: z
    .enum(reviewQueues)
    .default('pending')
    .describe('`pending` (default: waiting for you, snoozed items whose time came included), `snoozed` (still asleep), `unknown` (sends whose outcome is unknown, reviewed or not: settle them with `/resolve`), `all` (every item that went through review, decided ones included).'),
  cursor,
  limit: limitParam(reviewLimits.pageDefault, reviewLimits.pageMax),
});
export type ListReviewInput = z.infer<typeof listReviewInput>;

export const reviewPageOutput = z.object({
  items: z.array(reviewItemSchema),
  nextCursor: z.string().nullable(),
  pendingCount: z.number().int().min(0).describe('Your items waiting for review under the same `mailboxId`/`workflowId` filter.'),
});

export const reviewDetailInput = z.object({
  id: z.uuid(),
  allowRemoteImages: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe('`true`: keep remote images in `bodyHtml` for this read (blocked by default; `hasRemoteImages` tells whether there are any).'),
});

export const reviewAttachmentSchema = z.object({ filename: z.string(), mime: z.string(), size: z.number().int().min(0) });

export const reviewDetailOutput = z.object({
  message: reviewItemSchema,
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  recipientCards: z
    .array(
      z.object({
        address: z.string().describe('The recipient, normalised (lower case).'),
        displayName: z.string().nullable().describe('The name the address book gives (the organisation’s card), or null.'),
        status: z.string().nullable().describe('`customer`, `prospect`, `supplier`, `partner`, `vip` or `blocked`, or null.'),
      }),
    )
    .describe('To, Cc and Bcc as the address book resolves them from the sending mailbox’s point of view (the first 50).'),
  bodyText: z.string().optional(),
  bodyHtml: z.string().optional().describe('The draft’s HTML, sanitised on every read (scripts, handlers, forms, frames and active URLs removed; remote images blocked unless `allowRemoteImages=true`).'),
  hasRemoteImages: z.boolean(),
  attachments: z.array(reviewAttachmentSchema),
  relatedMessage: z
    .object({ id: z.uuid(), relation: z.enum(['reply', 'replyAll', 'forward']) })
    .nullable()
    .describe('The mirrored message this item answers or forwards, so it can be read beside the draft (its body: GET /api/v1/messages/{id}); null for a new message.'),
});

/** One address as a header carries it: no line breaks, no angle brackets or commas of a second one. */
const address = z.string().trim().max(254).pipe(z.email());
const addresses = z.array(address).max(reviewLimits.recipientsMax);

export const reviewSendInput = z.object({
  id: z.uuid(),
  clientToken,
  subject: z
    .string()
    .max(reviewLimits.subjectMax)
    .regex(/^[^\r\n]*$/, 'A subject is one line.')
    .optional(),
  bodyText: z.string().max(reviewLimits.bodyTextMax).optional(),
  bodyHtml: z.string().max(reviewLimits.bodyHtmlMax).optional(),
  to: addresses.optional(),
  cc: addresses.optional(),
  bcc: addresses.optional(),
});
export type ReviewSendInput = z.infer<typeof reviewSendInput>;

export const reviewSendOutput = z.object({ message: reviewItemSchema, opId: z.string().optional() });

export const reviewBatchInput = z.object({
  ids: z.array(z.string().min(1).max(100)).min(1).max(reviewLimits.batchMax).describe('1-50 item ids; an id that cannot be sent is skipped, never blocking the others.'),
  clientToken,
});

export const skipReasons = ['not_found', 'already_resolved', 'content_gone'] as const;

export const reviewBatchOutput = z.object({
  sent: z.array(z.string()),
  skipped: z.array(z.object({ id: z.string(), reason: z.enum(skipReasons) })),
  pendingCount: z.number().int().min(0),
});

export const reviewRejectInput = z.object({ id: z.uuid(), reason: z.string().max(reviewLimits.reasonMax).optional() });
export const reviewSnoozeInput = z.object({ id: z.uuid(), until: isoDateTimeInput.describe('When the item comes back to the queue: in the future, within 30 days.') });
export const reviewResolveInput = z.object({
  id: z.uuid(),
  verdict: z.enum(['sent', 'resend']).describe('`sent`: it did go out (checked in the Sent folder), mark it done; `resend`: it did not, send it again.'),
});
export const reviewItemOutput = z.object({ message: reviewItemSchema });

export const journalEvents = ['attempt', 'rejected', 'cancelled', 'held', 'released', 'resolved'] as const;

export const listSendingJournalInput = z.object({
  mailboxId: z.uuid().optional(),
  outboundId: z.uuid().optional().describe('Only the entries of this item.'),
  event: z.enum(journalEvents).optional(),
  cursor,
  limit: limitParam(reviewLimits.journalDefault, reviewLimits.journalMax),
});
export type ListSendingJournalInput = z.infer<typeof listSendingJournalInput>;

export const sendingJournalEntrySchema = z
  .object({
    id: z.string(),
    outboundId: z.string(),
    mailboxId: z.string(),
    event: z.enum(journalEvents),
    attempt: z.number().int().optional(),
    result: z.string().optional().describe('Attempts: `running`, `done`, `failed`, `unknown`; `resolved`: the verdict (`sent`, `resend`).'),
    providerMessageId: z.string().optional(),
    errorKind: z.string().optional(),
    errorMessage: z.string().optional(),
    reason: z.string().optional(),
    createdAt: isoDateTime,
    startedAt: isoDateTime.optional(),
    finishedAt: isoDateTime.optional(),
    subject: z.string(),
    recipients: z.array(z.string()),
  })
  .meta({ id: 'SendingJournalEntry' });

export const sendingJournalPageOutput = z.object({ entries: z.array(sendingJournalEntrySchema), nextCursor: z.string().nullable() });
