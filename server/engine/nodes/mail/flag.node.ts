/** Flag: flags (stars) or unflags the message. */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { messageIdParam, operate, targetMessage } from './act-on-message';

export const flagNode = defineNode({
  type: 'mail.flag',
  version: 1,
  category: 'mail',
  label: { en: 'Flag message', fr: 'Marquer d’un drapeau' },
  description: {
    en: 'Flags or unflags the triggering (or a chosen) message.',
    fr: 'Ajoute ou retire le drapeau du message déclencheur (ou d’un message choisi).',
  },
  params: z.strictObject({
    messageId: messageIdParam,
    flagged: z.boolean().default(true).describe('true: flag the message; false: remove the flag.'),
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:write'],
  async execute(context) {
    const messageId = targetMessage(context, context.params.messageId);
    const action = context.params.flagged ? 'flag' : 'unflag';
    return operate(context, { messageId, action }, context.params.flagged ? 'Flag the message' : 'Unflag the message');
  },
});
