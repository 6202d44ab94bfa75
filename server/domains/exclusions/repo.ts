/** Sender exclusions of one owner: a member (memberId) or the organisation (memberId null). */
import { db, type Tx } from '../../core/db';

export type Owner = { memberId: string } | 'organisation';

export const ownerFilter = (owner: Owner) => ({ memberId: owner === 'organisation' ? null : owner.memberId });

/** Serialises writes of one owner's list (NULL member ids are never equal in a unique index). */
export async function lockOwnerList(tx: Tx, owner: Owner): Promise<void> {
  const key = owner === 'organisation' ? 'sender_exclusions:organisation' : `sender_exclusions:${owner.memberId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

export function listOwnerRows(owner: Owner) {
  return db().senderExclusion.findMany({ where: ownerFilter(owner), orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** The owner's entry of this kind and value, if any (its id). */
export function findEntry(tx: Tx, owner: Owner, kind: string, value: string) {
  return tx.senderExclusion.findFirst({ where: { ...ownerFilter(owner), kind, value }, select: { id: true } });
}

export function countOwnerRows(tx: Tx, owner: Owner) {
  return tx.senderExclusion.count({ where: ownerFilter(owner) });
}

export function insertEntry(tx: Tx, owner: Owner, entry: { kind: string; value: string; note: string; createdBy: string }) {
  return tx.senderExclusion.create({ data: { ...ownerFilter(owner), ...entry } });
}

export function findOwnerRow(tx: Tx, owner: Owner, id: string) {
  return tx.senderExclusion.findFirst({ where: { id, ...ownerFilter(owner) } });
}

export function deleteRow(tx: Tx, id: string) {
  return tx.senderExclusion.delete({ where: { id } });
}
