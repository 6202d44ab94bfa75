/**
 * AI extract: the fields you list (name, type, description, required), read from the text (default:
 * the triggering message) as one object validated against a schema built from the list. Optional
 * fields not found are null. With `attachments: pdf_and_text` the model also reads the text of the
 * message's PDF and plain-text attachments (an invoice's PDF), bounded (shared.ts `attachmentsContext`).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { aiRetryDefaults, attachmentsParam, callEffect, fieldList, modelInput, modelParam, placeholderOf, resultData, schemaOfFields, textParam } from './shared';

export const extractParams = z.strictObject({
  fields: fieldList.describe('The fields to extract (1-50): name, type, description, required.'),
  instructions: z.string().max(4_000).default('').describe('Extra guidance for the model.'),
  text: textParam,
  attachments: attachmentsParam,
  model: modelParam,
});

export const aiExtractNode = defineNode({
  type: 'ai.extract',
  version: 1,
  category: 'ai',
  label: { en: 'Extract with AI', fr: 'Extraire avec l’IA' },
  description: {
    en: 'Reads the fields you list from the message (or a text) into `fields`, checked against their types. It can also read the message’s PDF and plain-text attachments (`attachments`).',
    fr: 'Lit les champs que vous listez dans le message (ou un texte) vers `fields`, vérifiés selon leur type. Il peut aussi lire les pièces jointes PDF et texte du message (`attachments`).',
  },
  params: extractParams,
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['messages:read'], // the triggering message's thread is its default text
  retry: aiRetryDefaults,
  async execute(context) {
    const { params, capabilities } = context;
    const output = schemaOfFields(params.fields);
    const text = await modelInput(context as never, params);
    const system = [
      'You extract structured data from a text. Answer with an object holding exactly the fields below; use null for an optional field the text does not give. Never invent values.',
      'Fields:',
      ...params.fields.map((field) => `- ${field.name} (${field.type}${field.required ? ', required' : ', optional'})${field.description ? `: ${field.description}` : ''}`),
      params.instructions ? `\n${params.instructions}` : '',
    ].join('\n');
    const call = { purpose: 'extract' as const, model: params.model, system, messages: [{ role: 'user' as const, content: text }] };
    const outcome = await capabilities.ai.call({ ...call, output, signal: context.signal, simulate: () => ({ text: '', object: placeholderOf(params.fields) }) });
    const fields = output.parse(outcome.object);
    return { data: resultData({ fields }, call, outcome), effects: [callEffect('extract', outcome)] };
  },
});
