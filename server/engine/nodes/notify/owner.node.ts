/** Notify the owner: a `workflow.notice` notification in the member's feed. */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

export const notifyOwnerNode = defineNode({
  type: 'notify.owner',
  version: 1,
  category: 'notify',
  label: { en: 'Notify me', fr: 'M’avertir' },
  description: {
    en: 'Adds a notification to your feed (title, text, severity).',
    fr: 'Ajoute une notification à votre fil (titre, texte, gravité).',
  },
  params: z.strictObject({
    title: z.string().min(1).max(120).describe('The title (1-120 characters).'),
    body: z.string().max(1_000).default('').describe('The text (at most 1,000 characters).'),
    severity: z.enum(['info', 'warning', 'error']).default('info').describe('How it is shown.'),
  }),
  outputs: ['main'],
  effect: 'external',
  requires: [],
  scopes: ['notifications:write'],
  async execute({ params, capabilities, effect }) {
    const description = `Notify the owner: ${params.title}`;
    const sent = await effect(
      { key: 'notify', kind: 'notify.owner', description },
      () => capabilities.notify.owner({ title: params.title, body: params.body, severity: params.severity }),
      () => ({ id: 'simulated' }),
    );
    return { data: { notificationId: sent.id } };
  },
});
