/**
 * AI prompt: any prompt, answered as text (`text`), or as an object (`json`) checked against the
 * fields you list when you give some.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { aiRetryDefaults, callEffect, fieldList, modelParam, placeholderOf, resultData, schemaOfFields } from './shared';

export const generalParams = z.strictObject({
  prompt: z.string().trim().min(1).max(20_000).describe('The prompt (expressions allowed: `{{ $trigger.subject }}`).'),
  system: z.string().max(4_000).default('').describe('Standing instructions (the system prompt).'),
  schema: fieldList.optional().describe('Fields of a JSON answer (name, type, description, required); absent: a text answer.'),
  model: modelParam,
});

export const aiGeneralNode = defineNode({
  type: 'ai.general',
  version: 1,
  category: 'ai',
  label: { en: 'Ask AI', fr: 'Demander à l’IA' },
  description: {
    en: 'Sends a prompt to the model: the answer as `text`, or as `json` when you list fields.',
    fr: 'Envoie une consigne au modèle : la réponse en `text`, ou en `json` si vous listez des champs.',
  },
  params: generalParams,
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  retry: aiRetryDefaults,
  async execute(context) {
    const { params, capabilities } = context;
    const output = params.schema ? schemaOfFields(params.schema) : undefined;
    const call = { purpose: 'general' as const, model: params.model, system: params.system, messages: [{ role: 'user' as const, content: params.prompt }] };
    const outcome = await capabilities.ai.call({
      ...call,
      output,
      signal: context.signal,
      simulate: () => (params.schema ? { text: '', object: placeholderOf(params.schema) } : { text: '[Simulated answer]' }),
    });
    const fields = output ? { json: output.parse(outcome.object) } : { text: outcome.text };
    return { data: resultData(fields, call, outcome), effects: [callEffect('general', outcome)] };
  },
});
