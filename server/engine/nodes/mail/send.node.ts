/** Send: sends a message (new, reply or reply to all); through the review queue unless the workflow allows direct sends. */
import { defineNode } from '../../contract/define-node';
import { makeOutbound, outboundParams } from './outbound';

export const sendNode = defineNode({
  type: 'mail.send',
  version: 1,
  category: 'mail',
  label: { en: 'Send a message', fr: 'Envoyer un message' },
  description: {
    en: 'Sends a message (a new one, or a reply to the triggering or a chosen message). It waits in your review queue first, unless the workflow’s settings allow sending without review.',
    fr: 'Envoie un message (nouveau, ou réponse au message déclencheur ou à un message choisi). Il attend d’abord dans votre file de relecture, sauf si les réglages du workflow permettent l’envoi sans relecture.',
  },
  params: outboundParams,
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:read', 'review:write'], // answers, quotes and attaches the member's mail
  mailboxParams: ['mailboxId'],
  async execute(context) {
    return makeOutbound(context, 'send', 'mail.send');
  },
});
