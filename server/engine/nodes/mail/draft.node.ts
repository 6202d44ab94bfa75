/** Draft: prepares a message (new, reply or reply to all) that waits in the review queue. */
import { defineNode } from '../../contract/define-node';
import { makeOutbound, outboundParams } from './outbound';

export const draftNode = defineNode({
  type: 'mail.draft',
  version: 1,
  category: 'mail',
  label: { en: 'Draft a message', fr: 'Préparer un brouillon' },
  description: {
    en: 'Prepares a message (a new one, or a reply to the triggering or a chosen message) that waits in your review queue until you send or reject it.',
    fr: 'Prépare un message (nouveau, ou réponse au message déclencheur ou à un message choisi) qui attend dans votre file de relecture jusqu’à ce que vous l’envoyiez ou le rejetiez.',
  },
  params: outboundParams,
  outputs: ['main'],
  effect: 'keyed',
  requires: ['mail'],
  scopes: ['messages:read', 'review:write'], // answers, quotes and attaches the member's mail
  mailboxParams: ['mailboxId'],
  async execute(context) {
    return makeOutbound(context, 'draft', 'mail.draft');
  },
});
