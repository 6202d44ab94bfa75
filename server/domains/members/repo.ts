/**
 * The members domain's queries: members (governance, first administrator) and invitations. Every
 * function takes the transaction it runs in, or runs on its own on the shared client.
 */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';

type Role = 'member' | 'admin';

/** Pending: neither accepted nor revoked (an expired one is still pending until housekeeping purges it). */
const pending = { acceptedAt: null, revokedAt: null } as const;

// --- members ---------------------------------------------------------------------------------

export function listAllMembers() {
  return db().member.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export function findMemberById(id: string, tx: Tx = db()) {
  return tx.member.findUnique({ where: { id } });
}

export function findMemberByEmail(email: string, tx: Tx = db()) {
  return tx.member.findUnique({ where: { email } });
}

export function countMembers(tx: Tx = db()) {
  return tx.member.count();
}

export function insertMember(data: Prisma.MemberCreateInput, tx: Tx = db()) {
  return tx.member.create({ data });
}

export function setMemberRole(id: string, role: Role, tx: Tx) {
  return tx.member.update({ where: { id }, data: { role } });
}

export function setMemberStatus(id: string, status: 'active' | 'suspended', tx: Tx) {
  return tx.member.update({ where: { id }, data: { status } });
}

/** The active administrators' ids (no lock): who follows the organisation's support threads live. */
export async function findActiveAdminIds(tx: Pick<Tx, 'member'> = db()): Promise<string[]> {
  const rows = await tx.member.findMany({ where: { role: 'admin', status: 'active' }, select: { id: true } });
  return rows.map((row) => row.id);
}

/**
 * Locks every active administrator row (FOR UPDATE) and returns their ids, so two administrators
 * demoting each other at the same moment cannot both succeed.
 */
export async function lockActiveAdminIds(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM members WHERE role = 'admin' AND status = 'active' ORDER BY id FOR UPDATE`;
  return rows.map((row) => row.id);
}

/** Serialises concurrent first starts (two processes, one empty table). */
const bootstrapLockKey = 0x6d66_0001;

export async function lockFirstAdminCreation(tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${bootstrapLockKey})`;
}

// --- invitations -----------------------------------------------------------------------------

export function listPendingInvitations() {
  return db().invitation.findMany({ where: pending, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

/** Serialises invitations to one address so two concurrent ones cannot both pass the "taken" check. */
export async function lockInvitationAddress(email: string, tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`invitation:${email}`}))`;
}

export function findLivePendingInvitation(email: string, tx: Tx) {
  return tx.invitation.findFirst({ where: { email, ...pending, expiresAt: { gt: new Date() } } });
}

export function insertInvitation(data: Prisma.InvitationUncheckedCreateInput, tx: Tx) {
  return tx.invitation.create({ data });
}

/** Marks a pending invitation revoked; 0 when there is none to revoke. */
export async function revokePendingInvitation(id: string, tx: Tx): Promise<number> {
  const { count } = await tx.invitation.updateMany({ where: { id, ...pending }, data: { revokedAt: new Date() } });
  return count;
}

export function findInvitationOrThrow(id: string, tx: Tx) {
  return tx.invitation.findUniqueOrThrow({ where: { id } });
}

function usable(tokenHash: string) {
  return { tokenHash, ...pending, expiresAt: { gt: new Date() } };
}

/** The invitation a token names, when it can still be accepted. */
export function findUsableInvitation(tokenHash: string, tx: Tx = db()) {
  return tx.invitation.findFirst({ where: usable(tokenHash), select: { id: true } });
}

/** Marks the invitation accepted if it still can be; of two concurrent claims only one gets the row. */
export async function claimUsableInvitation(tokenHash: string, tx: Tx) {
  const claimed = await tx.invitation.updateManyAndReturn({ where: usable(tokenHash), data: { acceptedAt: new Date() } });
  return claimed[0] ?? null;
}

export function linkInvitationToMember(id: string, memberId: string, tx: Tx) {
  return tx.invitation.update({ where: { id }, data: { acceptedMemberId: memberId } });
}
