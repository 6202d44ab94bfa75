/**
 * AI classify: puts the text (default: the triggering message) in one of the given labels, with a
 * confidence. One `main` output carrying `label`, so an `if` or `switch` routes on it. With a
 * triggering message and `writeClassification`, the label also lands in the mirror message's
 * `classification` (under `ai`), shown by the webmail. With `attachments: pdf_and_text` the model also
 * reads the text of the message's PDF and plain-text attachments (shared.ts `attachmentsContext`).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { aiRetryDefaults, attachmentsParam, callEffect, modelInput, modelParam, resultData, textParam } from './shared';

const label = z.strictObject({
  name: z.string().trim().min(1).max(64).describe('The label (what `data.label` answers).'),
  description: z.string().max(500).default('').describe('When this label applies, for the model.'),
});

export const classifyParams = z.strictObject({
  labels: z
    .array(label)
    .min(2)
    .max(50)
    .refine((labels) => new Set(labels.map((item) => item.name)).size === labels.length, 'Label names must be unique.')
    .describe('The labels to choose from (2-50, unique names).'),
  instructions: z.string().max(4_000).default('').describe('Extra guidance for the model.'),
  text: textParam,
  attachments: attachmentsParam,
  model: modelParam,
  writeClassification: z.boolean().default(true).describe('Also record the label on the triggering message (its `classification`).'),
});

export const aiClassifyNode = defineNode({
  type: 'ai.classify',
  version: 1,
  category: 'ai',
  label: { en: 'Classify with AI', fr: 'Classer avec l’IA' },
  description: {
    en: 'Chooses one of your labels for the message (or a text), with a confidence; route on `label` with an If or Switch. It can also read the message’s PDF and plain-text attachments (`attachments`).',
    fr: 'Choisit l’une de vos étiquettes pour le message (ou un texte), avec une confiance ; aiguillez sur `label` avec un Si ou un Aiguillage. Il peut aussi lire les pièces jointes PDF et texte du message (`attachments`).',
  },
  params: classifyParams,
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['messages:read'], // the triggering message's thread is its default text
  parameterScopes: { writeClassification: ['messages:write'] },
  retry: aiRetryDefaults,
  async execute(context) {
    const { params, capabilities } = context;
    const names = params.labels.map((item) => item.name) as [string, ...string[]];
    const output = z.strictObject({
      label: z.enum(names).describe('The chosen label, exactly as listed.'),
      confidence: z.number().min(0).max(1).describe('How sure, from 0 to 1.'),
    });
    const text = await modelInput(context as never, params);
    const system = [
      'You classify a text into exactly one of the labels below. Answer with the label name exactly as written and a confidence from 0 to 1.',
      'Labels:',
      ...params.labels.map((item) => `- ${item.name}${item.description ? `: ${item.description}` : ''}`),
      params.instructions ? `\n${params.instructions}` : '',
    ].join('\n');
    const call = { purpose: 'classify' as const, model: params.model, system, messages: [{ role: 'user' as const, content: text }] };
    const outcome = await capabilities.ai.call({
      ...call,
      output,
      signal: context.signal,
      simulate: () => ({ text: '', object: { label: names[0], confidence: 0 } }),
    });
    const answer = output.parse(outcome.object);
    const effects = [callEffect('classify', outcome)];
    const messageId = context.execution.messageId;
    if (params.writeClassification && messageId) {
      const written = await capabilities.mail.classify({ messageId, key: 'ai', value: { label: answer.label, confidence: answer.confidence, nodeId: context.node.id, executionId: context.execution.id } });
      if (written) effects.push({ kind: 'mail.classify', description: `Classified the message as ${answer.label}`, ...(context.execution.simulated ? { simulated: true } : {}) });
    }
    return { data: resultData({ label: answer.label, confidence: answer.confidence }, call, outcome), effects };
  },
});
