/**
 * AI compose: a reply written from your instructions and the triggering message's thread, as
 * `{subject, bodyText}` for a following mail.draft or mail.send (`{{ $node["…"].bodyText }}`).
 * It writes nothing itself.
 *
 * Written for its recipient (issue 22): the recipient (`recipient`, default the triggering message's
 * sender) is looked up in the address book from the run's mailbox's point of view, and its resolved
 * formality (`tu`/`vous`), tone and language go into the prompt; the node's own `language` wins over
 * the entry's. The step's data says what was used (`recipient`, with the layer of each value). An
 * address nobody has a card for and no default covers changes nothing in the prompt, so graphs written
 * before the address book behave as they did (no new version).
 */
import { z } from 'zod';
import { isAddress } from '../../../mail/addresses';
import type { Capabilities, ContactCard } from '../../contract/capabilities';
import { defineNode } from '../../contract/define-node';
import { aiRetryDefaults, callEffect, messageContext, modelParam, resultData, textParam } from './shared';

export const composeParams = z.strictObject({
  instructions: z.string().trim().min(1).max(4_000).describe('What the message should say (tone, content, signature).'),
  text: textParam,
  threadMessages: z.number().int().min(1).max(20).default(5).describe('How many messages of the thread the model reads (the latest ones).'),
  language: z.string().trim().max(40).default('').describe('The language to write in; empty: the recipient’s in the address book, else the thread’s.'),
  recipient: z
    .string()
    .trim()
    .max(320)
    .default('')
    .describe('The address the message is written to (an expression may give it); empty: the sender of the triggering message. Its address book entry gives the formality, tone and language.'),
  addressBook: z.boolean().default(true).describe('Write as the address book says for the recipient (formality, tone, language).'),
  model: modelParam,
});

/** What the prompt says of the recipient, from their address book entry (English: the model's instructions). */
export function recipientLines(card: Pick<ContactCard, 'formality' | 'tone'> | null): string[] {
  const lines: string[] = [];
  if (card?.formality === 'vous') lines.push('Address the recipient formally (formality: vous; in French use « vous », in other languages their formal form of address).');
  if (card?.formality === 'tu') lines.push('Address the recipient informally (formality: tu; in French use « tu », in other languages their familiar form of address).');
  if (card?.tone) lines.push(`Tone: ${card.tone}.`);
  return lines;
}

/** The recipient's entry, or null (no address, not an address, the address book switched off). */
async function recipientCard(
  params: { recipient: string; addressBook: boolean },
  trigger: Record<string, unknown> | null,
  mailboxId: string | null,
  contacts: Capabilities['contacts'],
): Promise<ContactCard | null> {
  if (!params.addressBook) return null;
  const from = trigger?.from as { email?: unknown } | undefined;
  const address = params.recipient !== '' ? params.recipient : typeof from?.email === 'string' ? from.email : '';
  if (address === '' || !isAddress(address)) return null;
  return contacts.lookup({ address, mailboxId });
}

const output = z.strictObject({
  subject: z.string().max(300).describe('The subject line.'),
  bodyText: z.string().max(20_000).describe('The message body, plain text.'),
});

export const aiComposeNode = defineNode({
  type: 'ai.compose',
  version: 1,
  category: 'ai',
  label: { en: 'Write with AI', fr: 'Rédiger avec l’IA' },
  description: {
    en: 'Writes a message (subject and text) from your instructions and the thread, for a following Draft or Send node.',
    fr: 'Rédige un message (objet et texte) à partir de vos consignes et du fil, pour un nœud Brouillon ou Envoyer qui suit.',
  },
  params: composeParams,
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['messages:read'], // the triggering message's thread is its default text
  retry: aiRetryDefaults,
  async execute(context) {
    const { params, capabilities } = context;
    const thread = await messageContext(context as never, params.text, params.threadMessages);
    const card = await recipientCard(params, context.trigger, context.execution.mailboxId, capabilities.contacts);
    const language = params.language || card?.language || '';
    const system = [
      'You write an email on behalf of the user, answering the conversation below. Answer with a subject line and a plain-text body; no placeholders.',
      language ? `Write in ${language}.` : 'Write in the language of the conversation.',
      ...recipientLines(card),
      `Instructions: ${params.instructions}`,
    ].join('\n');
    const call = { purpose: 'compose' as const, model: params.model, system, messages: [{ role: 'user' as const, content: thread }] };
    const subjectOf = () => {
      const subject = typeof context.trigger?.subject === 'string' ? context.trigger.subject : '';
      return subject === '' || /^re:/i.test(subject) ? subject : `Re: ${subject}`;
    };
    const outcome = await capabilities.ai.call({
      ...call,
      output,
      signal: context.signal,
      simulate: () => ({ text: '', object: { subject: subjectOf(), bodyText: `[Simulated draft] ${params.instructions}`.slice(0, 20_000) } }),
    });
    const answer = output.parse(outcome.object);
    const recipient = card
      ? {
          address: card.address,
          formality: card.formality,
          tone: card.tone,
          language: params.language ? null : card.language,
          sources: { formality: card.sources.formality, tone: card.sources.tone, language: params.language ? null : card.sources.language },
        }
      : null;
    return { data: resultData({ subject: answer.subject, bodyText: answer.bodyText, recipient }, call, outcome), effects: [callEffect('compose', outcome)] };
  },
});
