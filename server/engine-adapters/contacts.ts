/**
 * The address book as the engine sees it (issue 22, "where the address book pays off"): the `contacts`
 * capability of `contacts.lookup` and `ai.compose`, and the sender's card the mail dispatcher puts in a
 * mail run's trigger data (`trigger.contact`, handed to the engine by the composition root). Both read
 * the contacts domain's resolution (`resolveContact`, its engine-api) for the run's member and map it to
 * the contract's `ContactCard`: the resolution's fields a workflow branches on, and their sources. The
 * signature is left out (the mail nodes append it themselves, ./send.ts).
 */
import type { Tx } from '../core/db';
import { AppError } from '../core/errors/app-error';
import { resolveContact } from '../domains/contacts/engine-api';
import { fail } from '../engine/contract/failures';
import type { ContactCard, ContactLayerName, ContactsCapability } from '../engine/contract/capabilities';

type Resolution = Awaited<ReturnType<typeof resolveContact>>;

const isDefault = (layer: ContactLayerName | null) => layer === null || layer.endsWith('_default');

/** The resolution as the contract's card. `known`: a card (not a default) gave at least one value. */
export function contactCardOf(resolution: Resolution): ContactCard {
  const { resolved, sources } = resolution;
  const layers = [sources.displayName, sources.status, sources.language, sources.formality, sources.tone, sources.signatureText, ...sources.notes];
  return {
    address: resolution.address,
    known: layers.some((layer) => !isDefault(layer)),
    displayName: resolved.displayName,
    status: resolved.status,
    language: resolved.language,
    formality: resolved.formality,
    tone: resolved.tone,
    notes: resolved.notes,
    sources: {
      displayName: sources.displayName,
      status: sources.status,
      language: sources.language,
      formality: sources.formality,
      tone: sources.tone,
      notes: sources.notes,
    },
  };
}

/** The `contacts` capability of one run's member. */
export function createContactsCapability(memberId: string): ContactsCapability {
  return {
    async lookup(input) {
      try {
        return contactCardOf(await resolveContact({ memberId, mailboxId: input.mailboxId ?? null, address: input.address }));
      } catch (error) {
        if (error instanceof AppError && error.code === 'contacts.mailbox_not_found') {
          throw fail.permanent('contacts.mailbox_not_found', { details: { path: 'params.mailboxId' } });
        }
        throw error;
      }
    },
  };
}

/**
 * The sender's card for a mail run's trigger data, read in the dispatcher's transaction from the
 * message's mailbox's point of view (the mailbox is the member's: the message came through it). Null
 * when the message has no sender address.
 */
export async function senderContactOf(tx: Tx, input: { memberId: string; mailboxId: string; address: string | null }): Promise<ContactCard | null> {
  if (!input.address || input.address.trim() === '') return null;
  return contactCardOf(await resolveContact({ memberId: input.memberId, mailboxId: input.mailboxId, address: input.address }, tx));
}
