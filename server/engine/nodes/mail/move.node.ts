/** Move: moves the message to a folder (a key or a role name such as `archive`). */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { messageIdParam, operate, targetMessage } from './act-on-message';

export const moveNode = defineNode({
  type: 'mail.move',
  version: 1,
  category: 'mail',
  label: { en: 'Move message', fr: 'Déplacer le message' },
  description: {
    en: 'Moves the triggering (or a chosen) message to a folder of its mailbox.',
    fr: 'Déplace le message déclencheur (ou un message choisi) vers un dossier de sa boîte.',
  },
  params: z.strictObject({
    messageId: messageIdParam,
    folder: z.string().min(1).max(256).describe('The target folder: its key, or a role name (inbox, archive, trash, spam, …).'),
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:write'],
  async execute(context) {
    const messageId = targetMessage(context, context.params.messageId);
    return operate(context, { messageId, action: 'move', folder: context.params.folder }, `Move the message to ${context.params.folder}`);
  },
});
