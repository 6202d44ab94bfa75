/**
 * Inbound webhook trigger: the JSON object a sender POSTs to /hooks/wf/{token} becomes the run's
 * trigger data, which this node passes on as its output.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

export const webhookTriggerNode = defineNode({
  type: 'trigger.webhook',
  version: 1,
  category: 'trigger',
  trigger: 'webhook',
  label: { en: 'Inbound webhook', fr: 'Webhook entrant' },
  description: {
    en: 'Starts the workflow when a program POSTs a JSON object to the workflow’s webhook URL.',
    fr: 'Démarre le workflow quand un programme envoie un objet JSON en POST à l’URL du webhook du workflow.',
  },
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  async execute({ trigger }) {
    return { data: trigger ?? {} };
  },
});
