/**
 * The request signature of the support protocol (docs/support-protocol.md, "Authentication"): HMAC-SHA256 under
 * the instance secret over the version, method, path with query, timestamp, nonce and the body's SHA-256. The
 * secret never travels; a captured request is good for one method, path and body, within the time window.
 * Pure: the client signs, the fake control plane (and a real operator) verifies with the same functions.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PROTOCOL_VERSION, SIGNATURE_WINDOW_SECONDS } from './protocol';

export type SignedParts = {
  method: string;
  /** Path and query exactly as sent (`/v1/instances/i-1/changes?cursor=c12&limit=200`). */
  pathAndQuery: string;
  /** Unix seconds. */
  timestamp: number;
  nonce: string;
  body: string;
};

export function stringToSign(parts: SignedParts): string {
  const bodyHash = createHash('sha256').update(parts.body, 'utf8').digest('hex');
  return [`v${PROTOCOL_VERSION}`, parts.method.toUpperCase(), parts.pathAndQuery, String(parts.timestamp), parts.nonce, bodyHash].join('\n');
}

export function sign(secret: string, parts: SignedParts): string {
  return createHmac('sha256', secret).update(stringToSign(parts), 'utf8').digest('hex');
}

export function newNonce(): string {
  return randomBytes(16).toString('hex');
}

export type VerifyResult = { ok: true } | { ok: false; code: 'bad_signature' | 'clock_skew' };

/** The operator's check: the timestamp within the window of `nowSeconds`, then the signature (constant time). */
export function verify(secret: string, parts: SignedParts, signature: string, nowSeconds: number): VerifyResult {
  if (!Number.isSafeInteger(parts.timestamp) || Math.abs(nowSeconds - parts.timestamp) > SIGNATURE_WINDOW_SECONDS) {
    return { ok: false, code: 'clock_skew' };
  }
  const expected = Buffer.from(sign(secret, parts), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, code: 'bad_signature' };
  return { ok: true };
}
