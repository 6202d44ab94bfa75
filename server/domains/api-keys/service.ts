/**
 * API keys. A key acts as its owner with scopes that only narrow the owner's rights. The secret is
 * returned once; only its SHA-256 is stored, with its first eight characters as a landmark.
 */
import type { ApiKey, Member } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { normaliseScopes, type Scope } from '../../core/auth/scopes';
import { newApiKeySecret, tokenHash } from '../../core/auth/tokens';
import { auditByOf, recordAudit } from '../../core/audit';
import { config } from '../../core/config';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { countLiveKeys, findAllKeysWithOwners, findKey, findKeyOrThrow, findKeyOwner, findMemberKeys, insertKey, lockKeyOwner, markKeyRevoked } from './repo';

export function presentKey(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: iso(key.createdAt),
    expiresAt: iso(key.expiresAt),
    revokedAt: iso(key.revokedAt),
    lastUsedAt: iso(key.lastUsedAt),
  };
}

function presentAdminKey(key: ApiKey & { member: Pick<Member, 'id' | 'email' | 'name'> }) {
  return { ...presentKey(key), owner: { id: key.member.id, email: key.member.email, name: key.member.name } };
}

const dayMs = 24 * 3600 * 1000;

/**
 * 409 `api_key.limit_reached` when the member already holds API_KEYS_MAX_PER_MEMBER live keys (not
 * revoked, not expired): each key has its own 600 requests a minute, so an unbounded number of keys
 * would make that no bound at all. The member's row is locked first, so two creations at once cannot
 * both take the last place.
 */
async function assertRoomForKey(memberId: string, tx: Tx): Promise<void> {
  await lockKeyOwner(tx, memberId);
  const limit = config().API_KEYS_MAX_PER_MEMBER;
  const live = await countLiveKeys(tx, memberId);
  if (live >= limit) throw appError('api_key.limit_reached', { details: { limit } });
}

export async function createKey(actor: AuthenticatedActor, input: { name: string; scopes: string[]; expiresInDays?: number }, ip: string | null) {
  const secret = newApiKeySecret();
  return db().$transaction(async (tx) => {
    await assertRoomForKey(actor.member.id, tx);
    const key = await insertKey(tx, {
      memberId: actor.member.id,
      name: input.name,
      prefix: secret.slice(0, 8),
      secretHash: tokenHash(secret),
      scopes: normaliseScopes(input.scopes as Scope[]),
      expiresAt: input.expiresInDays ? new Date(Date.now() + input.expiresInDays * dayMs) : null,
    });
    await recordAudit(auditByOf(actor), { action: 'api_key.created', targetKind: 'api_key', targetId: key.id, details: { name: key.name, scopes: key.scopes }, ip }, tx);
    return { key: presentKey(key), secret };
  });
}

export async function listOwnKeys(actor: AuthenticatedActor) {
  const keys = await findMemberKeys(actor.member.id);
  return { keys: keys.map(presentKey) };
}

export async function listAllKeys() {
  const keys = await findAllKeysWithOwners();
  return { keys: keys.map(presentAdminKey) };
}

/**
 * Revokes a key once: a second revocation keeps the first date and writes no second audit entry.
 * `ownerId` limits the search to one member's keys (another member's key is 404, never 403).
 */
async function revoke(actor: AuthenticatedActor, id: string, ownerId: string | null, ip: string | null, tx: Tx) {
  const key = await findKey(tx, id, ownerId);
  if (!key) throw appError('api_key.not_found');
  // Conditional update: of two concurrent revocations only one sets the date and audits.
  const { count } = await markKeyRevoked(tx, id);
  const revoked = await findKeyOrThrow(tx, id);
  if (count === 0) return revoked;
  await recordAudit(
    auditByOf(actor),
    { action: 'api_key.revoked', targetKind: 'api_key', targetId: id, details: { name: key.name, ownerId: key.memberId }, ip },
    tx,
  );
  return revoked;
}

export async function revokeOwnKey(actor: AuthenticatedActor, id: string, ip: string | null) {
  const key = await db().$transaction((tx) => revoke(actor, id, actor.member.id, ip, tx));
  return { key: presentKey(key) };
}

export async function revokeAnyKey(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const key = await revoke(actor, id, null, ip, tx);
    const member = await findKeyOwner(tx, key.memberId);
    return { key: presentAdminKey({ ...key, member }) };
  });
}
