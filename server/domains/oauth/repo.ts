/** OAuth applications and flows in the database. */
import { open } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';
import type { OAuthProvider } from './providers';

type Reader = Pick<Tx, 'oAuthApp'>;

export function findApp(provider: OAuthProvider, tx: Reader = db()) {
  return tx.oAuthApp.findUnique({ where: { provider } });
}

/** The registered, active application with its opened secret, or null. */
export async function activeClient(provider: OAuthProvider, tx: Reader = db()): Promise<{ clientId: string; clientSecret: string } | null> {
  const app = await findApp(provider, tx);
  if (!app || app.status !== 'active') return null;
  return { clientId: app.clientId, clientSecret: open(app.clientSecretEnc, `oauth-app:${provider}`) };
}

export function upsertApp(tx: Tx, provider: OAuthProvider, data: { clientId: string; clientSecretEnc: string; clientSecretHint: string; status: string; updatedById: string }) {
  return tx.oAuthApp.upsert({ where: { provider }, create: { provider, ...data }, update: data });
}

// ----- flows -----------------------------------------------------------------------------------

export function insertFlow(data: Prisma.OAuthFlowUncheckedCreateInput) {
  return db().oAuthFlow.create({ data });
}

export function findFlowByStateHash(stateHash: string) {
  return db().oAuthFlow.findUnique({ where: { stateHash } });
}

/** Marks the flow used if it is neither used nor expired at `now`; answers how many changed (1: this caller claimed it). */
export function markFlowUsed(id: string, now: Date) {
  return db().oAuthFlow.updateMany({ where: { id, usedAt: null, expiresAt: { gt: now } }, data: { usedAt: now } });
}

// ----- grants (credential rows of an OAuth grant type, scope member) ---------------------------

/** Serialises, until the transaction ends, the callbacks that store a grant for one member's account. */
export async function lockGrant(tx: Tx, memberId: string, type: string, accountEmail: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`oauth-grant\n${memberId}\n${type}\n${accountEmail}`}, 0))`;
}

export function findMemberGrant(tx: Tx, memberId: string, type: string, accountEmail: string) {
  return tx.credential.findFirst({ where: { memberId, type, accountEmail, scope: 'member' } });
}

export function updateGrant(tx: Tx, id: string, data: { capabilities: string[]; oauthScopes: string[]; dataEnc: string }) {
  return tx.credential.update({ where: { id }, data });
}

export function insertGrant(tx: Tx, data: Prisma.CredentialUncheckedCreateInput) {
  return tx.credential.create({ data });
}

/** The credential row a token is asked for (any type: the caller checks it is a grant). */
export function findGrantRow(id: string) {
  return db().credential.findUnique({ where: { id } });
}

/**
 * Stores a refreshed grant only if the row is still as read (`updatedAt`): a refresh that lost a race to another
 * writer changes nothing.
 */
export function updateGrantDataIfUnchanged(id: string, updatedAt: Date, dataEnc: string) {
  return db().credential.updateMany({ where: { id, updatedAt }, data: { dataEnc } });
}
