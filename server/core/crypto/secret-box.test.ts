import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../config';
import { deriveKey, encryptionEnabled, needsReseal, open, openJson, seal, sealJson, secretHint } from './secret-box';

const keyA = 'a'.repeat(40);
const keyB = 'b'.repeat(40);
const saved = { key: process.env.ENCRYPTION_KEY, previous: process.env.ENCRYPTION_KEYS_PREVIOUS };

function useKeys(current: string | undefined, previous?: string): void {
  if (current === undefined) delete process.env.ENCRYPTION_KEY;
  else process.env.ENCRYPTION_KEY = current;
  if (previous === undefined) delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  else process.env.ENCRYPTION_KEYS_PREVIOUS = previous;
  resetConfigForTests();
}

afterEach(() => useKeys(saved.key, saved.previous));

describe('secret-box', () => {
  it('seals with AES-256-GCM and opens with the same purpose; the text never holds the secret', () => {
    useKeys(keyA);
    const sealed = seal('hunter2-password', 'credential:1');
    expect(sealed).toMatch(/^v1:[0-9a-f]{8}:[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(open(sealed, 'credential:1')).toBe('hunter2-password');
    expect(seal('same', 'p')).not.toBe(seal('same', 'p'));
  });

  it('refuses another purpose, a tampered value and an unknown key without naming the secret', () => {
    useKeys(keyA);
    const sealed = seal('top-secret', 'credential:1');
    expect(() => open(sealed, 'credential:2')).toThrow(/does not open/);
    const bytes = Buffer.from(sealed.split(':')[2]!, 'base64');
    bytes[bytes.length - 1]! ^= 1;
    expect(() => open(`v1:${sealed.split(':')[1]}:${bytes.toString('base64')}`, 'credential:1')).toThrow(/does not open/);
    useKeys(keyB);
    expect(() => open(sealed, 'credential:1')).toThrow(/unknown key/);
  });

  it('rotation: values sealed under a previous key still open and are marked for resealing', () => {
    useKeys(keyA);
    const old = sealJson({ password: 'p' }, 'x');
    useKeys(keyB, `${keyA}`);
    expect(openJson(old, 'x')).toEqual({ password: 'p' });
    expect(needsReseal(old)).toBe(true);
    expect(needsReseal(seal('new', 'x'))).toBe(false);
    expect(old.split(':')[1]).toBe(deriveKey(keyA).id);
  });

  it('reports a missing key instead of sealing', () => {
    useKeys(undefined);
    expect(encryptionEnabled()).toBe(false);
    expect(() => seal('x', 'p')).toThrow(/no ENCRYPTION_KEY/);
  });

  it('hints show at most the last four characters, none for short secrets', () => {
    expect(secretHint('abcdefghij')).toBe('ghij');
    expect(secretHint('short')).toBe('');
  });
});
