/**
 * GET /api/v1/contacts: the entries a member sees, each with its cards and its resolution.
 *
 * An entry is listed when it has at least one card in the chosen layers that the member may see: the
 * shared card (`all`, `shared`), the member's own card or their mailbox cards (`all`, `member`; with
 * `mailboxId`, that mailbox's card only). Another member's cards never list, show or match an entry.
 * Order: newest first by the last update of such a card, then entry id; the cursor names that
 * position, so entries written meanwhile go before it and never shift a page (an entry updated
 * meanwhile moves to the top: it is not listed twice on later pages, it was already seen or will be
 * seen at its new place by a fresh read).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { ownedMailboxOrThrow } from './access';
import type { ContactKind } from './normalise';
import { presentMailboxCard, presentMember, presentShared } from './present';
import { findEntriesById } from './repo';
import { listEntryPage } from './repo-list';
import { loadLayers, stackOf, type Loaded } from './resolution';
import { resolveLayers } from './resolve';
import type { ListContactsInput } from './schemas';

export async function listContacts(actor: AuthenticatedActor, input: ListContactsInput) {
  const memberId = actor.member.id;
  const mailboxId = input.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, input.mailboxId);
  const rows = await listEntryPage({
    memberId,
    kind: input.kind,
    q: input.q?.trim().toLowerCase() || undefined,
    layer: input.layer,
    mailboxId,
    after: decodeCursor(input.cursor),
    limit: input.limit,
  });
  const page = pageOf(rows, input.limit, (row) => row.at);
  const entries = await findEntriesById(page.items.map((row) => row.id));
  const byId = new Map(entries.map((entry) => [entry.id, { kind: entry.kind as ContactKind, value: entry.value }]));
  const targets = page.items.map((row) => byId.get(row.id)).filter((target) => target !== undefined);
  const loaded = await loadLayers(memberId, mailboxId, targets);
  return { items: targets.map((target) => presentEntry(loaded, target, mailboxId)), nextCursor: page.nextCursor };
}

/** One entry as the API shows it: its cards the member sees, and its resolution. */
export function presentEntry(loaded: Loaded, target: { kind: ContactKind; value: string }, mailboxId: string | null) {
  const entryId = loaded.entryIdOf.get(`${target.kind}:${target.value}`);
  const shared = entryId ? loaded.cards.shared.find((card) => card.entryId === entryId) : undefined;
  const member = entryId ? loaded.cards.member.find((card) => card.entryId === entryId) : undefined;
  const mailboxCards = entryId ? loaded.cards.mailbox.filter((card) => card.entryId === entryId) : [];
  return {
    kind: target.kind,
    value: target.value,
    shared: shared ? presentShared(shared) : null,
    member: member ? presentMember(member) : null,
    memberByMailbox: mailboxCards.map(presentMailboxCard),
    ...resolveLayers(stackOf(loaded, target, mailboxId)),
  };
}
