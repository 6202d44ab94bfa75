/**
 * Connection queries. A member sees their own connections (`scope` member) and the organisation's
 * (`scope` org, written by administrators); another member's own connection does not exist for them
 * (404 `request.not_found`, never 403).
 */
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { Prisma } from '../../generated/prisma/client';
import { oauthGrantTypes } from './secret-data';

type Reader = Pick<Tx, 'credential'>;

const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];

/** The member's connections, then the organisation's; OAuth grants only when their type is asked for. */
export async function findVisible(memberId: string, type: string | undefined) {
  const typeFilter = type === undefined ? { type: { notIn: [...oauthGrantTypes] } } : { type };
  const [own, shared] = await Promise.all([
    db().credential.findMany({ where: { memberId, scope: 'member', ...typeFilter }, orderBy: newestFirst }),
    db().credential.findMany({ where: { scope: 'org', ...typeFilter }, orderBy: newestFirst }),
  ]);
  return [...own, ...shared];
}

export async function findVisibleOrThrow(memberId: string, id: string, tx: Reader = db()) {
  const row = await tx.credential.findFirst({ where: { id, OR: [{ memberId, scope: 'member' }, { scope: 'org' }] } });
  if (!row) throw appError('request.not_found', { message: 'No such connection.' });
  return row;
}

/** A mailbox still syncing with this connection (a disconnected one no longer needs it). */
export function findMailboxUsing(credentialId: string, tx: Pick<Tx, 'mailbox'> = db()) {
  return tx.mailbox.findFirst({ where: { credentialId, status: { not: 'disconnected' } }, select: { id: true, address: true } });
}

export function insertCredential(tx: Tx, data: Prisma.CredentialUncheckedCreateInput) {
  return tx.credential.create({ data });
}

export function updateCredential(tx: Tx, id: string, data: Prisma.CredentialUncheckedUpdateInput) {
  return tx.credential.update({ where: { id }, data });
}

export function deleteCredential(tx: Tx, id: string) {
  return tx.credential.delete({ where: { id } });
}

/**
 * One member's own connections of one type (scope member), oldest first: the rows as stored, their sealed data
 * included, for the caller that opens it (the AI capability's member endpoints); never for an answer.
 */
export function findOwnOfType(memberId: string, type: string) {
  return db().credential.findMany({
    where: { memberId, scope: 'member', type },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
}
