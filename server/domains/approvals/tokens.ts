/**
 * The approval email link's secrets. The link token is random (32 bytes, base64url) and only its
 * SHA-256 is stored (`linkTokenHash`): the database never holds a usable link. The page token is what
 * the link's page puts in its form: an HMAC of the link token's hash, the decision and the time
 * under a key derived from the instance key, so a POST that did not come from a page we served (a
 * cross-site form, a scanner replaying the URL with POST) is refused. Without an instance key the
 * HMAC is keyed by a fixed label: the link token itself (secret, in the email only) still has to be
 * known to forge one.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { instanceSubkey } from '../../core/crypto/secret-box';

/** How long a served page's form stays valid. */
export const pageTokenTtlMs = 60 * 60 * 1000;

export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The shape of a token we hand out (43 base64url characters); anything else is unknown at once. */
export function isLinkTokenShape(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

function pageKey(): Buffer | string {
  return instanceSubkey('approval link page') ?? 'mailflow approval link page';
}

function mac(tokenHash: string, decision: string, issuedAt: number): string {
  return createHmac('sha256', pageKey()).update(`${tokenHash}.${decision}.${issuedAt}`).digest('base64url');
}

export function issuePageToken(tokenHash: string, decision: string, now = Date.now()): string {
  return `${now}.${mac(tokenHash, decision, now)}`;
}

export function checkPageToken(pageToken: string | null, tokenHash: string, decision: string, now = Date.now()): boolean {
  if (!pageToken || pageToken.length > 200) return false;
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(pageToken);
  if (!match) return false;
  const issuedAt = Number(match[1]);
  if (!(issuedAt <= now + 60_000 && now - issuedAt <= pageTokenTtlMs)) return false;
  const expected = Buffer.from(mac(tokenHash, decision, issuedAt));
  const given = Buffer.from(match[2]);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
