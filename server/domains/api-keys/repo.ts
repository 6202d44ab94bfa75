/** The API keys' queries: a member's keys, every key (administration), the live-key count under the owner's row lock. */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';

/** Locks the owner's member row (FOR UPDATE): two creations at once cannot both take the last place. */
export async function lockKeyOwner(tx: Tx, memberId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM members WHERE id = ${memberId}::uuid FOR UPDATE`;
}

/** The member's live keys: not revoked, not expired. */
export function countLiveKeys(tx: Tx, memberId: string) {
  return tx.apiKey.count({ where: { memberId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] } });
}

export function insertKey(tx: Tx, data: Prisma.ApiKeyUncheckedCreateInput) {
  return tx.apiKey.create({ data });
}

/** The member's keys, newest first. */
export function findMemberKeys(memberId: string) {
  return db().apiKey.findMany({ where: { memberId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Every key with its owner, newest first. */
export function findAllKeysWithOwners() {
  return db().apiKey.findMany({
    include: { member: { select: { id: true, email: true, name: true } } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

/** The key, among one owner's keys when `ownerId` is given. */
export function findKey(tx: Tx, id: string, ownerId: string | null) {
  return tx.apiKey.findFirst({ where: { id, ...(ownerId ? { memberId: ownerId } : {}) } });
}

/** Revokes the key unless it already is (conditional: of two concurrent revocations only one counts). */
export function markKeyRevoked(tx: Tx, id: string) {
  return tx.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}

export function findKeyOrThrow(tx: Tx, id: string) {
  return tx.apiKey.findUniqueOrThrow({ where: { id } });
}

/** The owner shown beside a key in the administration list. */
export function findKeyOwner(tx: Tx, memberId: string) {
  return tx.member.findUniqueOrThrow({ where: { id: memberId }, select: { id: true, email: true, name: true } });
}
