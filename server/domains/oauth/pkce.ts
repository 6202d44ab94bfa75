/**
 * The random values of one authorization flow (pure): the `state` that names the flow in the
 * callback (only its SHA-256 is stored), and the PKCE verifier with its S256 challenge (RFC 7636).
 */
import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: 43 characters, within RFC 7636's 43-128 for a verifier. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

export function stateHashOf(state: string): string {
  return createHash('sha256').update(state, 'utf8').digest('hex');
}

/** S256: BASE64URL(SHA256(ASCII(code_verifier))). */
export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
