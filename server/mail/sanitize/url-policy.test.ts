import { describe, expect, it } from 'vitest';
import { canonicalCid, classifyUrl } from './url-policy';

describe('classifyUrl', () => {
  it.each([
    ['https://example.com/a b?x="y"', { kind: 'remote', url: 'https://example.com/a%20b?x=%22y%22' }],
    ['HTTP://Example.COM', { kind: 'remote', url: 'http://example.com/' }],
    ['  https://example.com/\n', { kind: 'remote', url: 'https://example.com/' }],
    ['ht\ttps://exa\nmple.com/', { kind: 'remote', url: 'https://example.com/' }],
    ['//cdn.example/x.png', { kind: 'remote', url: 'https://cdn.example/x.png' }],
    ['\\\\cdn.example\\x.png', { kind: 'remote', url: 'https://cdn.example/x.png' }],
    ['/\\cdn.example/x.png', { kind: 'remote', url: 'https://cdn.example/x.png' }],
    ['cid:part1.abc@example.com', { kind: 'cid', contentId: 'part1.abc@example.com' }],
    ['CID:%3Cpart1%3E', { kind: 'cid', contentId: 'part1' }],
    ['data:image/png;base64,iVBORw0KGgo=', { kind: 'data-image', url: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['DATA:image/JPEG;base64,/9j/4AAQ', { kind: 'data-image', url: 'DATA:image/JPEG;base64,/9j/4AAQ' }],
    ['mailto:a@example.com', { kind: 'mailto', url: 'mailto:a@example.com' }],
  ])('%j is %j', (raw, expected) => {
    expect(classifyUrl(raw)).toEqual(expected);
  });

  it.each([
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html;base64,PHNjcmlwdD4=',
    'data:image/svg+xml;base64,PHN2Zz4=',
    'data:image/png,rawbytes',
    'data:image/png;base64,<script>',
    'file:///etc/passwd',
    'ftp://example.com/',
    'tel:+331',
    '/relative/path',
    'relative.png',
    '#fragment',
    '',
    'https://',
    'https://exa mple.com/',
    'cid:',
    'cid:%E0%A4%A',
    'mailto:"><script>',
    `https://example.com/${'a'.repeat(9_000)}`,
  ])('refuses %j', (raw) => {
    expect(classifyUrl(raw)).toEqual({ kind: 'refused' });
  });

  it('writes content ids with an alphabet that needs no HTML escaping', () => {
    expect(canonicalCid('part1.abc@example.com')).toBe('cid:part1.abc%40example.com');
    expect(canonicalCid('a"b&c<d>(e)*\'~é')).toMatch(/^cid:[A-Za-z0-9._%-]+$/);
  });
});
