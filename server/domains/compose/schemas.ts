/** Compose's input and output schemas (webmail send, undo, reply context). Ours: the spec leaves compose "not shown". */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { reviewItemSchema } from '../review/schemas';
import { isAddress } from './context';

/** Text bounded to `max` characters (NUL and lone surrogates are refused for every route by the input pipeline). */
const storable = (max: number) => z.string().max(max);

const address = z
  .string()
  .trim()
  .max(320)
  .refine((value) => isAddress(value), 'Not a valid e-mail address.');

const addressList = (what: string) => z.array(address).max(100).default([]).describe(`${what}: at most 100 addresses.`);

export const maxComposeAttachments = 20;

const attachmentRef = z.union([
  z.strictObject({ uploadId: z.uuid().describe('An upload of yours (POST /api/v1/messages/attachments), not used by another message yet.') }),
  z.strictObject({
    messageId: z.uuid().describe('A message of your mailboxes.'),
    position: z.number().int().min(0).max(1_000_000).describe('The attachment’s MIME position in that message.'),
  }),
]);

export const clientTokenSchema = z
  .string()
  .min(8)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/)
  .describe('Names this request: the same token again answers the same message and sends nothing twice.');

export const sendMessageInput = z.strictObject({
  mailboxId: z.uuid().describe('The mailbox the message is sent from (one of yours, active).'),
  to: addressList('To'),
  cc: addressList('Cc'),
  bcc: addressList('Bcc'),
  subject: storable(500).optional().describe('At most 500 characters; default for an answer: `Re:`/`Fwd:` and the original’s subject.'),
  bodyText: storable(200_000).optional().describe('The plain-text body (at most 200,000 characters).'),
  bodyHtml: storable(400_000).optional().describe('The HTML body (at most 400,000 characters); sanitised when shown, never served as is.'),
  attachments: z.array(attachmentRef).max(maxComposeAttachments).default([]).describe('At most 20: uploads of yours, or attachments of messages of your mailboxes.'),
  inReplyTo: z
    .strictObject({
      messageId: z.uuid().describe('The message answered or forwarded (in the same mailbox).'),
      mode: z.enum(['reply', 'replyAll', 'forward']).describe('`reply`/`replyAll` thread the message (In-Reply-To, References); `forward` does not.'),
      includeAttachments: z.boolean().default(true).describe('`forward` only: attach the original’s attachments (default true).'),
    })
    .optional()
    .describe('Answers or forwards a message of the mailbox.'),
  review: z.boolean().default(false).describe('true: the message waits in the review queue (origin `webmail`) instead of leaving.'),
  signature: z
    .boolean()
    .default(false)
    .describe('true: add your signature for the first recipient (the address book’s: their card’s, else the mailbox’s default, else yours) under the text and HTML bodies, unless a body already carries it.'),
  clientToken: clientTokenSchema,
});

export type SendMessageInput = z.infer<typeof sendMessageInput>;

export const sendMessageOutput = z.object({
  message: reviewItemSchema,
  undoUntil: isoDateTime.nullable().describe('Until when POST …/undo can cancel the send; null: no undo window (sent to review, or SEND_UNDO_SECONDS=0).'),
});

export const undoInput = z.object({ id: z.string().min(1).max(200) });
export const undoOutput = z.object({ message: reviewItemSchema });

export const recipientSuggestionsInput = z.object({
  id: z.string().max(100).describe('The mailbox the message is written from (one of yours).'),
  q: z.string().trim().max(200).default('').describe('What was typed: part of an address or a name, case-blind (empty: the most frequent correspondents only).'),
  limit: z.coerce.number().int().min(1).max(20).default(10).describe('At most this many suggestions (1-20, default 10).'),
});
export type RecipientSuggestionsInput = z.infer<typeof recipientSuggestionsInput>;

export const recipientSuggestionsOutput = z.object({
  items: z.array(
    z.object({
      address: z.string().describe('The address, lower case.'),
      name: z.string().nullable().describe('The name to show: the address book’s display name, else the latest name the mirror saw.'),
      source: z.enum(['address_book', 'correspondent']).describe('`address_book`: a card you see matched; `correspondent`: a frequent correspondent of the mailbox.'),
      messages: z.number().int().min(0).describe('Messages with this address among the mailbox’s latest 2,000.'),
      displayName: z.string().nullable().describe('The resolved display name (the organisation’s card), or null.'),
      status: z.string().nullable().describe('The resolved status (`vip`, `blocked`…), or null.'),
    }),
  ),
});

export const replyContextInput = z.object({
  id: z.uuid(),
  mode: z.enum(['reply', 'replyAll', 'forward']).default('reply').describe('How the message is answered.'),
});

export const replyContextOutput = z.object({
  mailboxId: z.uuid(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  quotedText: z.string().describe('The original as quoted text (reply) or with its forwarded header (forward).'),
  attachments: z.array(z.object({ messageId: z.uuid(), position: z.number().int(), filename: z.string(), mime: z.string(), size: z.number().int() })),
});
