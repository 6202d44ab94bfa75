import { describe, expect, it } from 'vitest';
import { domainChain, normaliseValue } from './normalise';

describe('address book values: one stored form (lower-case, IDN domains in punycode)', () => {
  it.each([
    ['contact', '  Jane.Doe@Example.COM ', 'jane.doe@example.com'],
    ['domain', 'Bücher.Example', 'xn--bcher-kva.example'],
    ['domain', 'xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['domain', '@Shop.Example.', 'shop.example'],
    ['domain', 'ÉCOLE.fr', 'xn--cole-9oa.fr'],
    ['contact', 'a@ÉCOLE.fr', 'a@xn--cole-9oa.fr'],
  ] as const)('%s %j is stored as %j', (kind, raw, stored) => {
    expect(normaliseValue(kind, raw)).toBe(stored);
  });

  it('the Unicode and the punycode spelling of a domain are one value', () => {
    expect(normaliseValue('domain', 'bücher.example')).toBe(normaliseValue('domain', 'XN--BCHER-KVA.example'));
    expect(normaliseValue('contact', 'x@bücher.example')).toBe(normaliseValue('contact', 'X@xn--bcher-kva.EXAMPLE'));
  });

  it.each([
    ['domain', 'localhost'],
    ['domain', '1.2.3.4'],
    ['domain', '0x7f.1'],
    ['domain', 'a@b.example'],
    ['domain', 'exa mple.com'],
    ['domain', 'example.com/path'],
    ['domain', 'user:pass@example.com'],
    ['domain', '__proto__'],
    ['domain', `${'a'.repeat(64)}.example`],
    ['domain', ''],
    ['contact', 'no-at.example'],
    ['contact', '@example.com'],
    ['contact', 'a@@example.com'],
    ['contact', 'a b@example.com'],
    ['contact', '"quoted"@example.com'],
    ['contact', '.a@example.com'],
    ['contact', 'a..b@example.com'],
    ['contact', 'a@localhost'],
    ['contact', '__proto__@__proto__'],
    // A non-ASCII local part is not an address here (the local part is kept ASCII).
    ['contact', 'jürgen@bücher.example'],
    ['contact', `${'a'.repeat(65)}@example.com`],
    ['contact', `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.com`],
  ] as const)('refuses %s %j', (kind, raw) => {
    expect(normaliseValue(kind, raw)).toBeNull();
  });

  it('a domain card covers its subdomains, the nearest first, never a bare top-level label', () => {
    expect(domainChain('eu.shop.example')).toEqual(['eu.shop.example', 'shop.example']);
    expect(domainChain('example.com')).toEqual(['example.com']);
  });
});
