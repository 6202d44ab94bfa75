/**
 * Loading the layers of entries and resolving them (resolve.ts decides). `resolveContact` is the
 * face's entry for the rest of the product (the mail trigger's data, the `contacts.lookup` node,
 * `ai.compose`, `mail.draft`'s signature, the webmail): the resolved card of an address for a member,
 * from one of their mailboxes' point of view or none.
 */
import type { db, Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { domainChain, domainOfAddress, normaliseAddress, type ContactKind } from './normalise';
import { defaultsLayer, memberLayer, sharedLayer } from './present';
import { findCardsOf, findEntries, findOwnedMailbox, isPool, type CardsOf } from './repo';
import { findMailboxDefaults, findMemberDefaults, findOrgDefaults, findSignatureTexts } from './repo-settings';
import { resolveLayers, type LayerStack, type LayerValues } from './resolve';

export interface Target {
  kind: ContactKind;
  value: string;
}

/** What the layers of a set of targets need, loaded in a fixed number of queries. */
export interface Loaded {
  entryIdOf: Map<string, string>;
  cards: CardsOf;
  org: Awaited<ReturnType<typeof findOrgDefaults>>;
  member: Awaited<ReturnType<typeof findMemberDefaults>>;
  mailbox: Awaited<ReturnType<typeof findMailboxDefaults>> | null;
  signatureTexts: Map<string, string>;
}

const keyOf = (kind: ContactKind, value: string) => `${kind}:${value}`;

/** Where the reads run: the caller's transaction (the mail dispatcher's), else the pool. */
type Client = Tx | ReturnType<typeof db>;

/** The domains whose cards apply to a target, nearest first. */
function domainsOf(target: Target): string[] {
  return domainChain(target.kind === 'domain' ? target.value : domainOfAddress(target.value));
}

/**
 * Loads the targets' entries, the domain entries above them, their cards the member sees (every
 * mailbox card of the member when `mailboxId` is null: the list shows them), the three defaults and
 * the texts of the signatures they name.
 */
export async function loadLayers(memberId: string, mailboxId: string | null, targets: Target[], client?: Client): Promise<Loaded> {
  const wanted = targets.flatMap((target) => [target, ...domainsOf(target).map((value) => ({ kind: 'domain' as const, value }))]);
  const reads = [
    () => findEntries(wanted, client),
    () => findOrgDefaults(client),
    () => findMemberDefaults(memberId, client),
    () => (mailboxId ? findMailboxDefaults(mailboxId, client) : Promise.resolve(null)),
  ] as const;
  // In the caller's transaction (one connection) one after the other; on the pool side by side.
  const [entries, org, member, mailbox] =
    client && !isPool(client) ? [await reads[0](), await reads[1](), await reads[2](), await reads[3]()] : await Promise.all([reads[0](), reads[1](), reads[2](), reads[3]()]);
  const entryIdOf = new Map(entries.map((entry) => [keyOf(entry.kind as ContactKind, entry.value), entry.id]));
  const cards = await findCardsOf(
    entries.map((entry) => entry.id),
    memberId,
    mailboxId,
    client,
  );
  const signatureIds = [...cards.member, ...cards.mailbox, ...(member ? [member] : []), ...(mailbox ? [mailbox] : [])]
    .map((row) => row.signatureId)
    .filter((id): id is string => Boolean(id));
  const texts = await findSignatureTexts(memberId, [...new Set(signatureIds)], client);
  return { entryIdOf, cards, org, member, mailbox, signatureTexts: new Map(texts.map((row) => [row.id, row.text])) };
}

/** The first layer value found along the domain chain (the nearest domain with a card of that layer). */
function nearest<T>(domainEntryIds: (string | undefined)[], find: (entryId: string) => T | undefined): T | undefined {
  for (const entryId of domainEntryIds) {
    const found = entryId ? find(entryId) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** The nine layers of one target as the member sees it (mailbox layers only with `mailboxId`). */
export function stackOf(loaded: Loaded, target: Target, mailboxId: string | null): LayerStack {
  const { cards, signatureTexts: texts } = loaded;
  const sharedOf = (entryId: string) => cards.shared.find((card) => card.entryId === entryId);
  const memberOf = (entryId: string) => cards.member.find((card) => card.entryId === entryId);
  const mailboxOf = (entryId: string) => (mailboxId ? cards.mailbox.find((card) => card.entryId === entryId && card.mailboxId === mailboxId) : undefined);
  const domainIds = domainsOf(target).map((value) => loaded.entryIdOf.get(keyOf('domain', value)));
  const contactId = target.kind === 'contact' ? loaded.entryIdOf.get(keyOf('contact', target.value)) : undefined;
  const none = () => undefined;
  const stack: Record<string, LayerValues | null> = {
    org_default: defaultsLayer(loaded.org, texts),
    member_default: defaultsLayer(loaded.member, texts),
    member_mailbox_default: mailboxId ? defaultsLayer(loaded.mailbox, texts) : null,
    shared_domain: sharedLayer(nearest(domainIds, sharedOf)),
    member_domain: memberLayer(nearest(domainIds, memberOf), texts),
    member_mailbox_domain: memberLayer(nearest(domainIds, mailboxId ? mailboxOf : none), texts),
    shared_contact: contactId ? sharedLayer(sharedOf(contactId)) : null,
    member_contact: contactId ? memberLayer(memberOf(contactId), texts) : null,
    member_mailbox_contact: contactId ? memberLayer(mailboxOf(contactId), texts) : null,
  };
  return stack as LayerStack;
}

/**
 * The resolved card of an address for a member, from a mailbox's point of view when given (it must be
 * the member's: `contacts.mailbox_not_found` otherwise). An address that is not one resolves from the
 * defaults alone. Used by the trigger's data, `contacts.lookup`, compose and the signatures of drafts;
 * `client` is the caller's transaction when it has one (the mail dispatcher reads in its own).
 */
export async function resolveContact(input: { memberId: string; mailboxId?: string | null; address: string }, client?: Client) {
  let mailboxId: string | null = null;
  if (input.mailboxId) {
    const mailbox = await findOwnedMailbox(input.memberId, input.mailboxId, client);
    if (!mailbox) throw appError('contacts.mailbox_not_found');
    mailboxId = mailbox.id;
  }
  const address = normaliseAddress(input.address);
  const targets: Target[] = address ? [{ kind: 'contact', value: address }] : [];
  const loaded = await loadLayers(input.memberId, mailboxId, targets, client);
  const stack = address ? stackOf(loaded, targets[0]!, mailboxId) : defaultsOnly(loaded, mailboxId);
  return { address: address ?? input.address.trim().toLowerCase(), ...resolveLayers(stack) };
}

function defaultsOnly(loaded: Loaded, mailboxId: string | null): LayerStack {
  return {
    org_default: defaultsLayer(loaded.org, loaded.signatureTexts),
    member_default: defaultsLayer(loaded.member, loaded.signatureTexts),
    member_mailbox_default: mailboxId ? defaultsLayer(loaded.mailbox, loaded.signatureTexts) : null,
  };
}

/**
 * The resolved cards of several addresses at once, in the same fixed number of queries as one (the
 * layers of every target load together): the review pane's recipients, the webmail's suggestions.
 * The mailbox is trusted here (the caller read it as the member's); addresses that are not one are
 * left out. In the order given, each address once.
 */
export async function resolveContacts(input: { memberId: string; mailboxId: string | null; addresses: readonly string[] }, client?: Client) {
  const addresses = [...new Set(input.addresses.map((address) => normaliseAddress(address)).filter((address): address is string => Boolean(address)))];
  if (addresses.length === 0) return [];
  const targets: Target[] = addresses.map((value) => ({ kind: 'contact', value }));
  const loaded = await loadLayers(input.memberId, input.mailboxId, targets, client);
  return targets.map((target) => ({ address: target.value, ...resolveLayers(stackOf(loaded, target, input.mailboxId)) }));
}
