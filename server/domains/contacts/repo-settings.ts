/** The address book's defaults (organisation, member, mailbox) and the members' signatures: their queries. */
import { db, type Tx } from '../../core/db';
import { isUuid } from '../../core/ids';

type Db = Tx | ReturnType<typeof db>;

export interface DefaultsData {
  formality: string | null;
  tone: string | null;
  language: string | null;
  notes: string | null;
}

const organisationId = 'organisation';

export function findOrgDefaults(client: Db = db()) {
  return client.contactOrgDefaults.findUnique({ where: { id: organisationId } });
}

export function upsertOrgDefaults(tx: Tx, data: DefaultsData) {
  const now = new Date();
  return tx.contactOrgDefaults.upsert({ where: { id: organisationId }, create: { id: organisationId, ...data, updatedAt: now }, update: { ...data, updatedAt: now } });
}

export function findMemberDefaults(memberId: string, client: Db = db()) {
  return client.contactMemberDefaults.findUnique({ where: { memberId } });
}

export function upsertMemberDefaults(tx: Tx, memberId: string, data: DefaultsData & { signatureId: string | null }) {
  const now = new Date();
  return tx.contactMemberDefaults.upsert({ where: { memberId }, create: { memberId, ...data, updatedAt: now }, update: { ...data, updatedAt: now } });
}

export function findMailboxDefaults(mailboxId: string, client: Db = db()) {
  return client.contactMailboxDefaults.findUnique({ where: { mailboxId } });
}

export function upsertMailboxDefaults(tx: Tx, mailboxId: string, data: DefaultsData & { signatureId: string | null }) {
  const now = new Date();
  return tx.contactMailboxDefaults.upsert({ where: { mailboxId }, create: { mailboxId, ...data, updatedAt: now }, update: { ...data, updatedAt: now } });
}

/** The member's own signature, by a client's id (anything else: null). */
export function findOwnedSignature(memberId: string, id: string, client: Db = db()) {
  if (!isUuid(id)) return Promise.resolve(null);
  return client.contactSignature.findFirst({ where: { id: id.toLowerCase(), memberId } });
}

export function findSignatureTexts(memberId: string, ids: string[], client: Db = db()) {
  if (ids.length === 0) return Promise.resolve([]);
  return client.contactSignature.findMany({ where: { id: { in: ids }, memberId }, select: { id: true, text: true } });
}

export function listSignatures(memberId: string) {
  return db().contactSignature.findMany({ where: { memberId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Serialises one member's signature writes (the count bound). */
export async function lockMemberSignatures(tx: Tx, memberId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`contact_signatures:${memberId}`}))`;
}

export function countSignatures(tx: Tx, memberId: string) {
  return tx.contactSignature.count({ where: { memberId } });
}

export function insertSignature(tx: Tx, memberId: string, data: { name: string; text: string; html: string | null }) {
  return tx.contactSignature.create({ data: { memberId, ...data } });
}

export function updateSignature(id: string, data: { name?: string; text?: string; html?: string | null }) {
  return db().contactSignature.update({ where: { id }, data: { ...data, updatedAt: new Date() } });
}

export function deleteSignature(id: string) {
  return db().contactSignature.deleteMany({ where: { id } });
}
