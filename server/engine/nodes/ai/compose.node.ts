/**
 * AI compose: a reply written from your instructions and the triggering message's thread, as
 * `{subject, bodyText}` for a following mail.draft or mail.send (`{{ $node["…"].bodyText }}`).
 * It writes nothing itself.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { aiRetryDefaults, callEffect, messageContext, modelParam, resultData, textParam } from './shared';

export const composeParams = z.strictObject({
  instructions: z.string().trim().min(1).max(4_000).describe('What the message should say (tone, content, signature).'),
  text: textParam,
  threadMessages: z.number().int().min(1).max(20).default(5).describe('How many messages of the thread the model reads (the latest ones).'),
  language: z.string().trim().max(40).default('').describe('The language to write in; empty: the thread’s.'),
  model: modelParam,
});

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
    const system = [
      'You write an email on behalf of the user, answering the conversation below. Answer with a subject line and a plain-text body; no placeholders.',
      params.language ? `Write in ${params.language}.` : 'Write in the language of the conversation.',
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
    return { data: resultData({ subject: answer.subject, bodyText: answer.bodyText }, call, outcome), effects: [callEffect('compose', outcome)] };
  },
});
