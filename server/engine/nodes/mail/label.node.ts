/** Label: adds and removes labels on the message. */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { messageIdParam, operate, targetMessage } from './act-on-message';

const label = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'A label has no control characters.');

export const labelNode = defineNode({
  type: 'mail.label',
  version: 1,
  category: 'mail',
  label: { en: 'Label message', fr: 'Étiqueter le message' },
  description: {
    en: 'Adds and removes labels on the triggering (or a chosen) message.',
    fr: 'Ajoute et retire des étiquettes sur le message déclencheur (ou un message choisi).',
  },
  params: z
    .strictObject({
      messageId: messageIdParam,
      add: z.array(label).max(20).default([]).describe('Labels to add (at most 20, 1-200 characters each).'),
      remove: z.array(label).max(20).default([]).describe('Labels to remove (at most 20).'),
    })
    .refine((params) => params.add.length + params.remove.length > 0, { message: 'Add or remove at least one label.', path: ['add'] }),
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:write'],
  async execute(context) {
    const messageId = targetMessage(context, context.params.messageId);
    const { add, remove } = context.params;
    return operate(context, { messageId, action: 'label', labels: { add, remove } }, `Label the message (+${add.length} −${remove.length})`);
  },
});
