import { describe, expect, it } from 'vitest';
import { canonicalJson, requestHashOf } from './idempotency-store';

describe('idempotency request hash', () => {
  it('ignores key order', () => {
    expect(requestHashOf({ a: 1, b: { c: 2, d: [1, 2] } })).toBe(requestHashOf({ b: { d: [1, 2], c: 2 }, a: 1 }));
  });

  it('distinguishes different bodies', () => {
    expect(requestHashOf({ a: 1 })).not.toBe(requestHashOf({ a: 2 }));
    expect(requestHashOf({ a: [1, 2] })).not.toBe(requestHashOf({ a: [2, 1] }));
  });

  it('drops undefined members as JSON does', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe('hardening (fuzzed surface): a body nested deeper than the call stack is hashed, not a 500', () => {
  it('hashes arrays and objects nested 100,000 deep', () => {
    const depth = 100_000;
    const arrays = JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    const objects = JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    expect(canonicalJson(arrays)).toBe(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
    expect(canonicalJson(objects)).toBe(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    expect(requestHashOf(arrays)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes the same text as before for ordinary bodies', () => {
    expect(canonicalJson({ b: [1, { d: null, c: 'x' }, [], {}], a: true, e: undefined })).toBe('{"a":true,"b":[1,{"c":"x","d":null},[],{}]}');
    expect(canonicalJson([undefined, 'é', 1.5])).toBe('[null,"é",1.5]');
  });
});

describe('the stored request hash is keyed by the instance key (bodies carry passwords)', () => {
  it('is not the plain SHA-256 of the body, and changes with the instance key', async () => {
    const { createHash } = await import('node:crypto');
    const { resetConfigForTests } = await import('../config');
    const body = { address: 'a@example.test', password: 'hunter2' };
    const saved = process.env.ENCRYPTION_KEY;
    try {
      process.env.ENCRYPTION_KEY = 'k'.repeat(40);
      resetConfigForTests();
      const first = requestHashOf(body);
      expect(first).not.toBe(createHash('sha256').update(canonicalJson(body)).digest('hex'));
      process.env.ENCRYPTION_KEY = 'j'.repeat(40);
      resetConfigForTests();
      expect(requestHashOf(body)).not.toBe(first);
    } finally {
      process.env.ENCRYPTION_KEY = saved;
      resetConfigForTests();
    }
  });
});
