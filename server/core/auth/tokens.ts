/** Random bearer tokens (session cookies, API key secrets, invitation tokens) and their stored hashes. */
import { createHash, randomBytes } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens carry 256 bits of randomness, so a fast hash is enough (no KDF needed as for passwords). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export const apiKeyPrefix = 'mk_';

export function newApiKeySecret(): string {
  return `${apiKeyPrefix}${randomToken(32)}`;
}
