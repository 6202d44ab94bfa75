import { z } from 'zod';
import { limitParam } from '../../../core/http/cursor';
import { addressSchema, booleanQuery, cursorParam, mailboxIdParam, messageSummarySchema, qParam } from '../schemas';

export const listMessagesInput = z.object({
  mailboxId: mailboxIdParam,
  cursor: cursorParam,
  limit: limitParam(50, 200),
  q: qParam,
});

export type ListMessagesInput = z.infer<typeof listMessagesInput>;

export const listMessagesOutput = z.object({ messages: z.array(messageSummarySchema), nextCursor: z.string().nullable() });

export const getMessageInput = z.object({
  id: z.uuid(),
  allowRemoteImages: booleanQuery('`true`: keep remote images in `bodyHtmlSafe` for this read (blocked by default; `hasRemoteImages` tells whether there are any).'),
});

export const unsubscribeInput = z.object({ id: z.uuid() });
export const unsubscribeOutput = z.object({
  unsubscribed: z.literal(true),
  host: z.string().describe('The host the request went to (the URL itself is the list’s token and is not repeated).'),
  status: z.number().int().describe('The HTTP status the list answered.'),
});

export const listUnsubscribeSchema = z
  .object({
    oneClick: z.boolean().describe('True: POST /api/v1/messages/{id}/unsubscribe leaves the list in one request (RFC 8058).'),
    mailto: z
      .object({ to: z.string(), subject: z.string(), body: z.string() })
      .nullable()
      .describe('The unsubscribe mail the list asks for (`List-Unsubscribe: <mailto:…>`), ready to send from the webmail.'),
  })
  .nullable()
  .describe('How to leave the list this message came from (`List-Unsubscribe`), or null.');

export const attachmentSchema = z.object({
  id: z.uuid(),
  position: z.number().int().min(0),
  filename: z.string(),
  mime: z.string(),
  size: z.number().int().min(0),
  disposition: z.enum(['attachment', 'inline']),
  contentId: z.string().nullable(),
  downloadUrl: z.string().describe('Path of the download route, relative to the service: `/api/v1/messages/{id}/attachments/{position}`.'),
});

export const messageSchema = messageSummarySchema
  .extend({
    threadId: z.uuid().nullable(),
    classification: z.record(z.string(), z.unknown()),
    bodyText: z.string().nullable(),
    bodyHtmlSafe: z.string().nullable().describe('Sanitised on every read, never stored; a whole document meant for a sandboxed frame (no scripts).'),
    hasRemoteImages: z.boolean(),
    bodyComplete: z.boolean(),
    headersSubset: z.object({
      to: z.array(addressSchema),
      cc: z.array(addressSchema),
      replyTo: z.array(addressSchema),
      date: z.string().nullable(),
      messageIdHeader: z.string().nullable(),
    }),
    attachments: z.array(attachmentSchema),
    listUnsubscribe: listUnsubscribeSchema,
  })
  .meta({ id: 'Message' });

export type MessageOutput = z.infer<typeof messageSchema>;
