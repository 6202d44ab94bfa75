/**
 * The address book's queries on entries and cards: the only file of the domain that reads or writes
 * them (the list's statement is in repo-list.ts, defaults and signatures in repo-settings.ts). Reads
 * of a member's cards are scoped to that member here, once.
 */
import { db, type Tx } from '../../core/db';
import { isUuid } from '../../core/ids';
import type { ContactKind } from './normalise';

type Db = Tx | ReturnType<typeof db>;

/** The pool's client (the one `db()` answers), not a transaction's. */
export const isPool = (client: Db): client is ReturnType<typeof db> => client === db();

/** The member's own mailbox, by a client's id (anything else: null). */
export function findOwnedMailbox(memberId: string, id: string, client: Db = db()) {
  if (!isUuid(id)) return Promise.resolve(null);
  return client.mailbox.findFirst({ where: { id: id.toLowerCase(), memberId }, select: { id: true } });
}

/** The entry's id, created when missing; the row is locked until the transaction ends. */
export async function ensureEntry(tx: Tx, kind: ContactKind, value: string): Promise<string> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO contact_entries (id, kind, value) VALUES (gen_random_uuid(), ${kind}, ${value})
    ON CONFLICT (kind, value) DO UPDATE SET kind = EXCLUDED.kind
    RETURNING id`;
  return rows[0]!.id;
}

export function findEntry(kind: ContactKind, value: string, client: Db = db()) {
  return client.contactEntry.findUnique({ where: { kind_value: { kind, value } }, select: { id: true } });
}

export interface SharedCardData {
  displayName: string | null;
  language: string | null;
  status: string | null;
  orgNotes: string | null;
}

export interface MemberCardData {
  formality: string | null;
  tone: string | null;
  language: string | null;
  signatureId: string | null;
  personalNotes: string | null;
}

export function upsertSharedCard(tx: Tx, entryId: string, data: SharedCardData, by: string) {
  const now = new Date();
  return tx.contactSharedCard.upsert({
    where: { entryId },
    create: { entryId, ...data, updatedBy: by, updatedAt: now },
    update: { ...data, updatedBy: by, updatedAt: now },
  });
}

export function deleteSharedCard(tx: Tx, entryId: string) {
  return tx.contactSharedCard.deleteMany({ where: { entryId } });
}

export function upsertMemberCard(tx: Tx, entryId: string, memberId: string, data: MemberCardData) {
  const now = new Date();
  return tx.contactMemberCard.upsert({
    where: { entryId_memberId: { entryId, memberId } },
    create: { entryId, memberId, ...data, updatedAt: now },
    update: { ...data, updatedAt: now },
  });
}

export function deleteMemberCard(tx: Tx, entryId: string, memberId: string) {
  return tx.contactMemberCard.deleteMany({ where: { entryId, memberId } });
}

export function upsertMailboxCard(tx: Tx, entryId: string, memberId: string, mailboxId: string, data: MemberCardData) {
  const now = new Date();
  return tx.contactMailboxCard.upsert({
    where: { entryId_mailboxId: { entryId, mailboxId } },
    create: { entryId, memberId, mailboxId, ...data, updatedAt: now },
    update: { ...data, updatedAt: now },
  });
}

export function deleteMailboxCard(tx: Tx, entryId: string, memberId: string, mailboxId: string) {
  return tx.contactMailboxCard.deleteMany({ where: { entryId, memberId, mailboxId } });
}

/** Entries by kind and value (the values of one kind in one query each). */
export async function findEntries(wanted: { kind: ContactKind; value: string }[], client: Db = db()) {
  const contacts = [...new Set(wanted.filter((item) => item.kind === 'contact').map((item) => item.value))];
  const domains = [...new Set(wanted.filter((item) => item.kind === 'domain').map((item) => item.value))];
  const or = [
    ...(contacts.length ? [{ kind: 'contact', value: { in: contacts } }] : []),
    ...(domains.length ? [{ kind: 'domain', value: { in: domains } }] : []),
  ];
  if (or.length === 0) return [];
  return client.contactEntry.findMany({ where: { OR: or }, select: { id: true, kind: true, value: true } });
}

export function findEntriesById(ids: string[], client: Db = db()) {
  return client.contactEntry.findMany({ where: { id: { in: ids } }, select: { id: true, kind: true, value: true } });
}

/**
 * The cards of these entries a member may see: the shared cards, the member's own, and the member's
 * mailbox cards (of one mailbox when given).
 */
export async function findCardsOf(entryIds: string[], memberId: string, mailboxId: string | null, client: Db = db()) {
  if (entryIds.length === 0) return { shared: [], member: [], mailbox: [] };
  const reads = [
    () => client.contactSharedCard.findMany({ where: { entryId: { in: entryIds } } }),
    () => client.contactMemberCard.findMany({ where: { entryId: { in: entryIds }, memberId } }),
    () =>
      client.contactMailboxCard.findMany({
        where: { entryId: { in: entryIds }, memberId, ...(mailboxId ? { mailboxId } : {}) },
        orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      }),
  ] as const;
  // A transaction is one connection: its reads go one after the other (pg refuses overlapping queries
  // on one client from pg@9); the pool's run side by side.
  if (!isPool(client)) return { shared: await reads[0](), member: await reads[1](), mailbox: await reads[2]() };
  const [shared, member, mailbox] = await Promise.all([reads[0](), reads[1](), reads[2]()]);
  return { shared, member, mailbox };
}

export type CardsOf = Awaited<ReturnType<typeof findCardsOf>>;
export type SharedCardRow = CardsOf['shared'][number];
export type MemberCardRow = CardsOf['member'][number];
export type MailboxCardRow = CardsOf['mailbox'][number];
