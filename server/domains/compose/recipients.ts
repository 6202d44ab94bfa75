/**
 * GET /api/v1/mailboxes/{id}/recipient-suggestions (ours, issue 22): the webmail's recipient autocompletion in
 * compose. Two sources, each bounded: the address book entries the member sees whose address or name
 * contains the text (contacts' `suggestFromAddressBook`), then the mailbox's frequent correspondents
 * from its mirror (mail's `findFrequentCorrespondents`: its latest 2,000 messages). Each address once,
 * the address book's first; every suggestion carries its resolved display name and status from the
 * mailbox's point of view (one fixed set of queries for the whole list). Scoped to the member: another
 * member's mailbox is `mailbox.not_found`, and another member's cards never suggest or show.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { resolveContacts, suggestFromAddressBook } from '../contacts';
import { findFrequentCorrespondents } from '../mail';
import { memberMailbox } from './repo';
import type { RecipientSuggestionsInput } from './schemas';

export async function suggestRecipients(actor: AuthenticatedActor, input: RecipientSuggestionsInput) {
  const memberId = actor.member.id;
  const mailbox = await memberMailbox(db(), memberId, input.id);
  if (!mailbox) throw appError('mailbox.not_found');
  const [book, mirror] = await Promise.all([
    suggestFromAddressBook(memberId, input.q, input.limit),
    findFrequentCorrespondents(mailbox.id, mailbox.address, input.q, input.limit),
  ]);
  const seen = new Set<string>();
  const merged: { address: string; name: string | null; source: 'address_book' | 'correspondent'; messages: number }[] = [];
  for (const entry of book) {
    if (seen.has(entry.address)) continue;
    seen.add(entry.address);
    merged.push({ address: entry.address, name: entry.displayName, source: 'address_book', messages: 0 });
  }
  const counts = new Map(mirror.map((row) => [row.address, row]));
  for (const item of merged) item.messages = counts.get(item.address)?.messages ?? 0;
  for (const row of mirror) {
    if (seen.has(row.address)) continue;
    seen.add(row.address);
    merged.push({ address: row.address, name: row.name, source: 'correspondent', messages: row.messages });
  }
  const items = merged.slice(0, input.limit);
  const cards = new Map((await resolveContacts({ memberId, mailboxId: mailbox.id, addresses: items.map((item) => item.address) })).map((card) => [card.address, card.resolved]));
  return {
    items: items.map((item) => {
      const card = cards.get(item.address);
      return { ...item, displayName: card?.displayName ?? null, status: card?.status ?? null };
    }),
  };
}
