/**
 * Read the thread (issue 24 §1): the conversation of the triggering message (or a chosen one) as the
 * mailbox sees it: its latest messages (at most 50, oldest first), each with its summary fields and its
 * direction (`outbound` when it is from the mailbox's own address), the participants, the last inbound
 * message a person wrote and the last outbound one, and `awaitingReply` (the mailbox wrote last, and no
 * person answered since). A read: a test run reads the same.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';
import { quotedValue } from '../../../core/quoted-value';

const threadAddress = z.strictObject({ name: z.string().nullable().describe('The display name, if any.'), email: z.string().describe('The address.') });

const threadMessage = z.strictObject({
  id: z.string().describe('The message id.'),
  direction: z.enum(['inbound', 'outbound']).describe('`outbound`: from the mailbox’s own address; `inbound`: from someone else.'),
  from: z.strictObject({ name: z.string().nullable().describe('The sender’s name.'), email: z.string().nullable().describe('The sender’s address.') }).describe('The sender.'),
  to: z.array(threadAddress).describe('The first 10 recipients.'),
  cc: z.array(threadAddress).describe('The first 10 copied recipients.'),
  subject: z.string().nullable().describe('The subject.'),
  snippet: z.string().nullable().describe('The start of the text.'),
  receivedAt: z.string().describe('When it arrived (ISO 8601).'),
  folder: z.string().describe('The folder’s role (`inbox`, `sent`…) or key.'),
  hasAttachments: z.boolean().describe('Whether it has attachments.'),
  automatic: z.boolean().describe('Mail no person wrote: an automatic reply, a delivery report, bulk mail or a no-reply sender.'),
  signals: z
    .strictObject({
      isAutoReply: z.boolean(),
      isNoReply: z.boolean(),
      isMailingList: z.boolean(),
      isBulk: z.boolean(),
      isDeliveryReport: z.boolean(),
      isCalendar: z.boolean(),
    })
    .describe('What ingest found about the message.'),
});

/** What the node outputs (the capability's ThreadRead), for the builder's completion before any run. */
export const threadReadOutput = z.strictObject({
  threadId: z.string().nullable().describe('The conversation (null for a message in no thread).'),
  mailboxId: z.string().describe('The mailbox.'),
  mailboxAddress: z.string().describe('The mailbox’s own address: what makes a message outbound.'),
  subject: z.string().nullable().describe('The subject of the first message read.'),
  messageCount: z.number().int().describe('How many messages the conversation has (drafts left out, copies counted once).'),
  messages: z.array(threadMessage).describe('The latest messages, oldest first.'),
  truncated: z.boolean().describe('Whether older messages were left out.'),
  participants: z.array(threadAddress).describe('Everyone in From, To and Cc of the messages read, your own address left out.'),
  lastInbound: threadMessage.nullable().describe('The last message someone else wrote (automatic mail left out), or null.'),
  lastOutbound: threadMessage.nullable().describe('Your last message, or null.'),
  awaitingReply: z.boolean().describe('You wrote last: nobody answered your last message (automatic replies do not count).'),
});

export const readThreadNode = defineNode({
  type: 'mail.read_thread',
  version: 1,
  category: 'mail',
  label: { en: 'Read the thread', fr: 'Lire la conversation' },
  description: {
    en: 'Reads the conversation of the triggering (or a chosen) message: its latest messages with who wrote them (you or someone else), the participants, the last message received and the last one sent, and whether you are awaiting a reply.',
    fr: 'Lit la conversation du message déclencheur (ou d’un message choisi) : ses derniers messages avec qui les a écrits (vous ou quelqu’un d’autre), les participants, le dernier message reçu et le dernier envoyé, et si vous attendez une réponse.',
  },
  params: z.strictObject({
    messageId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('A message of the thread to read (a message id or an expression); default: the message that started the run.'),
    limit: z.number().int().min(1).max(50).default(50).describe('How many of the latest messages to read (1-50, default 50).'),
  }),
  outputs: ['main'],
  output: threadReadOutput,
  effect: 'none',
  requires: ['mail'],
  scopes: ['messages:read'],
  async execute(context) {
    const messageId = context.params.messageId?.trim() || context.execution.messageId;
    if (!messageId) {
      throw fail.permanent('invalid_parameter', { message: 'params.messageId: the run has no triggering message; give the id of a message of the thread.', details: { path: 'params.messageId' } });
    }
    const thread = await context.capabilities.mail.thread({ messageId, limit: context.params.limit });
    if (!thread) {
      throw fail.permanent('mail.message_not_found', {
        message: `The message “${quotedValue(messageId)}” is not in your mailboxes’ mirror (deleted, moved away, or not yours).`,
        details: { path: 'params.messageId' },
      });
    }
    return { data: thread };
  },
});
