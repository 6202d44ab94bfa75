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
