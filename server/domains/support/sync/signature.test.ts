import { describe, expect, it } from 'vitest';
import { SIGNATURE_WINDOW_SECONDS } from './protocol';
import { sign, stringToSign, verify, type SignedParts } from './signature';

const secret = 'instance-secret-0123456789abcdef';
const parts: SignedParts = { method: 'PUT', pathAndQuery: '/v1/instances/i-1/threads/t', timestamp: 1_800_000_000, nonce: 'ab'.repeat(16), body: '{"a":1}' };

describe('request signature', () => {
  it('covers version, method, path with query, timestamp, nonce and the body hash; the secret is not in it', () => {
    const text = stringToSign(parts);
    expect(text.split('\n')).toEqual(['v1', 'PUT', parts.pathAndQuery, '1800000000', parts.nonce, expect.stringMatching(/^[0-9a-f]{64}$/)]);
    expect(text).not.toContain(secret);
    expect(sign(secret, parts)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies a request signed with the same secret within the window', () => {
    expect(verify(secret, parts, sign(secret, parts), parts.timestamp + SIGNATURE_WINDOW_SECONDS)).toEqual({ ok: true });
    expect(verify(secret, parts, sign(secret, parts), parts.timestamp - SIGNATURE_WINDOW_SECONDS)).toEqual({ ok: true });
  });

  it('refuses a timestamp outside the window (clock skew or an old capture)', () => {
    expect(verify(secret, parts, sign(secret, parts), parts.timestamp + SIGNATURE_WINDOW_SECONDS + 1)).toEqual({ ok: false, code: 'clock_skew' });
  });

  it('refuses a change of any signed part, another secret, or a malformed signature', () => {
    const signature = sign(secret, parts);
    for (const changed of [
      { ...parts, method: 'GET' },
      { ...parts, pathAndQuery: '/v1/instances/i-2/threads/t' },
      { ...parts, nonce: 'cd'.repeat(16) },
      { ...parts, body: '{"a":2}' },
      { ...parts, timestamp: parts.timestamp + 1 },
    ]) {
      expect(verify(secret, changed, signature, parts.timestamp)).toEqual({ ok: false, code: 'bad_signature' });
    }
    expect(verify('another-secret-0123456789abcdef', parts, signature, parts.timestamp)).toEqual({ ok: false, code: 'bad_signature' });
    expect(verify(secret, parts, 'zz', parts.timestamp)).toEqual({ ok: false, code: 'bad_signature' });
  });
});
