/** Sender exclusions of one owner: a member (memberId) or the organisation (memberId null). */
import type { Tx } from '../../core/db';

export type Owner = { memberId: string } | 'organisation';

export const ownerFilter = (owner: Owner) => ({ memberId: owner === 'organisation' ? null : owner.memberId });

/** Serialises writes of one owner's list (NULL member ids are never equal in a unique index). */
export async function lockOwnerList(tx: Tx, owner: Owner): Promise<void> {
  const key = owner === 'organisation' ? 'sender_exclusions:organisation' : `sender_exclusions:${owner.memberId}`;
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}
