/** Mark read: marks the message read or unread. */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { messageIdParam, operate, targetMessage } from './act-on-message';

export const markReadNode = defineNode({
  type: 'mail.mark_read',
  version: 1,
  category: 'mail',
  label: { en: 'Mark as read', fr: 'Marquer comme lu' },
  description: {
    en: 'Marks the triggering (or a chosen) message read or unread.',
    fr: 'Marque le message déclencheur (ou un message choisi) comme lu ou non lu.',
  },
  params: z.strictObject({
    messageId: messageIdParam,
    read: z.boolean().default(true).describe('true: mark read; false: mark unread.'),
  }),
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:write'],
  async execute(context) {
    const messageId = targetMessage(context, context.params.messageId);
    const action = context.params.read ? 'markRead' : 'markUnread';
    return operate(context, { messageId, action }, context.params.read ? 'Mark the message read' : 'Mark the message unread');
  },
});
