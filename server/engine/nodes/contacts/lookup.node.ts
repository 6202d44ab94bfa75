/**
 * Look up a contact: the address book entry of any address as the run's member sees it (issue 22):
 * the resolution of the nine layers (the organisation's cards and defaults, the member's, and the
 * mailbox's when one is given) with the layer each value came from. Reads only: a test run reads the
 * same. The mail trigger already carries the sender's entry (`trigger.contact`); this node reads any
 * other address (a recipient, an address found in the text, a row's column).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { isAddress } from '../../../mail/addresses';
import { fail } from '../../contract/failures';

export const contactLookupParams = z.strictObject({
  address: z.string().trim().max(320).default('').describe('The address to look up (an expression may give it); empty: the sender of the triggering message.'),
  mailboxId: z
    .string()
    .max(100)
    .optional()
    .describe('Read from this mailbox’s point of view (its cards and defaults count); default: the mailbox of the run; `none`: the member’s cards only.'),
});

export const contactLookupNode = defineNode({
  type: 'contacts.lookup',
  version: 1,
  category: 'contacts',
  label: { en: 'Look up a contact', fr: 'Consulter un contact' },
  description: {
    en: 'Reads the address book entry of an address as you see it: name, status, language, formality, tone and notes, and which card gave each value. Found nothing: the fields are empty and `known` is false.',
    fr: 'Lit la fiche du carnet d’adresses d’une adresse telle que vous la voyez : nom, statut, langue, tutoiement ou vouvoiement, ton et notes, et la carte d’où vient chaque valeur. Rien trouvé : les champs sont vides et `known` est faux.',
  },
  params: contactLookupParams,
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: ['contacts:read'],
  mailboxParams: ['mailboxId'],
  async execute({ params, trigger, execution, capabilities }) {
    const from = trigger?.from as { email?: unknown } | undefined;
    const address = params.address !== '' ? params.address : typeof from?.email === 'string' ? from.email : '';
    if (address === '') throw fail.permanent('invalid_parameter', { message: 'params.address: no address given and the run has no triggering message with a sender.', details: { path: 'params.address' } });
    if (!isAddress(address)) throw fail.permanent('invalid_parameter', { message: `params.address: not an e-mail address: ${address.slice(0, 100)}`, details: { path: 'params.address' } });
    const chosen = params.mailboxId?.trim() ?? '';
    const mailboxId = chosen === 'none' ? null : chosen !== '' ? chosen : execution.mailboxId;
    const card = await capabilities.contacts.lookup({ address, mailboxId });
    return { data: card };
  },
});
