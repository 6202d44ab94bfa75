/**
 * What mail.draft and mail.send share: their parameters (mailbox, the message answered, recipients,
 * subject, bodies, attachments, the signature) and their execution (defaults checked against the
 * mirror, then one outbound item under the step's effect key; in a test run a simulated item). Not a
 * node module.
 *
 * The signature (issue 22) is the address book's for the first recipient, appended by the `send`
 * capability's `prepare` (engine-adapters/send.ts). Never twice: the item is made once per effect key
 * (a retried step finds the item its first attempt made, whatever `prepare` computes again), a body
 * that already carries the signature is left as it is, and a draft edited in review is stored as the
 * reviewer left it (nothing appends on send).
 */
import { z } from 'zod';
import type { NodeContext, NodeResult } from '../../contract/define-node';
import type { OutboundRequest } from '../../contract/capabilities';
import { parseAddressList } from '../../../mail/addresses';
import { fail } from '../../contract/failures';

const recipients = (what: string) =>
  z
    .union([z.array(z.string().max(400)).max(100), z.string().max(40_000), z.null()])
    .optional()
    .describe(`${what}: addresses as a list or as comma-separated text (an expression may give either), at most 100.`);

const messageRef = z.string().max(100);

export const outboundParams = z.strictObject({
  mailboxId: z
    .string()
    .max(100)
    .optional()
    .describe('The mailbox the message is sent from; default: the mailbox of the run (of the message answered).'),
  replyTo: z
    .strictObject({
      messageId: messageRef.optional().describe('The message answered (an id or an expression); default: the message that started the run.'),
      mode: z.enum(['reply', 'replyAll']).default('reply').describe('`reply`: to the sender; `replyAll`: also the original’s other recipients (without the mailbox’s own address).'),
    })
    .optional()
    .describe('Answer a message (threaded: In-Reply-To, References); leave out for a new message.'),
  to: recipients('To; default for an answer: the sender (or Reply-To)'),
  cc: recipients('Cc; default for a reply to all: the original’s other recipients'),
  bcc: recipients('Bcc'),
  subject: z.string().max(500).optional().describe('The subject (an expression may build it); default for an answer: `Re:` and the original’s subject.'),
  bodyText: z.string().max(200_000).optional().describe('The plain-text body (expressions allowed), at most 200,000 characters.'),
  bodyHtml: z.string().max(400_000).optional().describe('The HTML body (expressions allowed), at most 400,000 characters; sanitised when shown.'),
  attachments: z
    .array(
      z.union([
        z.strictObject({
          source: z.literal('trigger').describe('An attachment of the message that started the run.'),
          position: z.number().int().min(0).max(1_000_000).optional().describe('Its MIME position; leave out for all of them.'),
        }),
        z.strictObject({
          source: z.literal('message').describe('An attachment of a message of your mailboxes (from upstream data).'),
          messageId: messageRef.describe('The message (an id or an expression).'),
          position: z.number().int().min(0).max(1_000_000).optional().describe('Its MIME position; leave out for all of them.'),
        }),
      ]),
    )
    .max(20)
    .default([])
    .describe('Attachments to add (at most 20 in all).'),
  signature: z
    .boolean()
    .default(true)
    .describe('Add your signature for the first recipient (the address book’s: their card’s, else the mailbox’s default, else yours), once, under the text and the HTML.'),
});

export type OutboundParams = z.output<typeof outboundParams>;

function addresses(value: string | string[] | null | undefined, field: string): string[] | null {
  if (value === undefined || value === null) return null;
  const { addresses: list, invalid } = parseAddressList(value);
  if (invalid.length > 0) throw fail.permanent('invalid_parameter', { message: `params.${field}: not an e-mail address: ${invalid[0]}`, details: { path: `params.${field}` } });
  return list;
}

const trimmed = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : null);

/** The request the node asks the capability for, from its parameters and the run. */
export function outboundRequest(context: Pick<NodeContext<OutboundParams>, 'params' | 'execution'>): OutboundRequest {
  const { params, execution } = context;
  let answer: OutboundRequest['answer'] = null;
  if (params.replyTo) {
    const messageId = trimmed(params.replyTo.messageId) ?? execution.messageId;
    if (!messageId) throw fail.permanent('mail.mailbox_required', { message: 'An answer needs a message: none was chosen and the run has no triggering message.' });
    answer = { messageId, mode: params.replyTo.mode };
  }
  const mailboxId = trimmed(params.mailboxId) ?? (answer && trimmed(params.replyTo?.messageId) ? null : execution.mailboxId);
  if (!mailboxId && !answer) throw fail.permanent('mail.mailbox_required');
  const attachments = params.attachments.map((attachment) => {
    if (attachment.source === 'message') {
      const messageId = trimmed(attachment.messageId);
      if (!messageId) throw fail.permanent('invalid_parameter', { message: 'params.attachments: a message attachment needs its message.' });
      return { messageId, position: attachment.position ?? null };
    }
    if (!execution.messageId) throw fail.permanent('invalid_parameter', { message: 'params.attachments: the run has no triggering message to take attachments from.' });
    return { messageId: execution.messageId, position: attachment.position ?? null };
  });
  const to = addresses(params.to, 'to');
  return {
    mailboxId,
    answer,
    to: to && to.length === 0 && answer ? null : to,
    cc: addresses(params.cc, 'cc'),
    bcc: addresses(params.bcc, 'bcc') ?? [],
    subject: params.subject !== undefined && params.subject.trim() !== '' ? params.subject : null,
    bodyText: params.bodyText ?? null,
    bodyHtml: params.bodyHtml ?? null,
    attachments,
    signature: params.signature,
  };
}

/** Prepares, then makes the item under the effect key `outbound` (a simulated one in a test run). */
export async function makeOutbound(context: NodeContext<OutboundParams>, mode: 'draft' | 'send', nodeType: string): Promise<NodeResult> {
  const prepared = await context.capabilities.send.prepare(outboundRequest(context));
  const description = `${mode === 'draft' ? 'Draft' : 'Send'} “${prepared.subject}” to ${[...prepared.to, ...prepared.cc, ...prepared.bcc].length} recipient(s)`;
  const outcome = await context.effect(
    { key: 'outbound', kind: nodeType, description },
    () => context.capabilities.send.create({ effectKey: 'outbound', mode, node: { id: context.node.id, type: nodeType }, prepared }),
    () => ({
      itemId: 'simulated',
      reviewStatus: 'pending',
      sendStatus: 'pending',
      messageIdHeader: '<simulated@localhost>',
      to: prepared.to,
      subject: prepared.subject,
      duplicate: false,
    }),
  );
  return {
    data: {
      itemId: outcome.itemId,
      reviewStatus: outcome.reviewStatus,
      sendStatus: outcome.sendStatus,
      messageIdHeader: outcome.messageIdHeader,
      to: outcome.to,
      subject: outcome.subject,
      ...(context.execution.simulated ? { simulated: true } : {}),
    },
    effects: [{ kind: nodeType, description, ...(context.execution.simulated ? { simulated: true } : {}) }],
  };
}
