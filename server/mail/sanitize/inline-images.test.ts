import { describe, expect, it } from 'vitest';
import { rewriteCidReferences } from './inline-images';
import { sanitizeMailHtml } from './sanitize-html';

describe('rewriteCidReferences', () => {
  const urls = new Map([
    ['logo@example.com', '/api/v1/messages/m1/attachments/2'],
    ['a&b', 'https://files.example/x?a=1&b=2'],
    ['bad', 'javascript:alert(1)'],
    ['relative', 'x.png'],
    ['protocol-relative', '//evil.example/x.png'],
  ]);

  it.each([
    ['a mapped id', '<img src="cid:logo@example.com" alt="l">', '<img alt="l" src="/api/v1/messages/m1/attachments/2">'],
    ['an id with characters the canonical form encodes', '<img src="cid:a%26b">', '<img src="https://files.example/x?a=1&amp;b=2">'],
    ['an unmapped id, left alone', '<img src="cid:unknown">', '<img src="cid:unknown">'],
    ['a URL that is not http(s) or a path here, left alone', '<img src="cid:bad"><img src="cid:relative">', '<img src="cid:bad"><img src="cid:relative">'],
    ['a protocol-relative URL, as https', '<img src="cid:protocol-relative">', '<img src="https://evil.example/x.png">'],
  ])('%s', (_label, html, body) => {
    const safe = sanitizeMailHtml(html).html;
    expect(rewriteCidReferences(safe, urls)).toBe(`<html><head></head><body>${body}</body></html>`);
  });

  it('touches neither text nor other attributes that merely look like a reference', () => {
    const safe = sanitizeMailHtml('<p title=\'<img src="cid:logo@example.com">\'>src="cid:logo%40example.com"</p>').html;
    expect(rewriteCidReferences(safe, urls)).toBe(safe);
  });

  it('accepts a function', () => {
    const safe = sanitizeMailHtml('<img src="cid:x"><img src="cid:y">').html;
    expect(rewriteCidReferences(safe, (id) => (id === 'x' ? '/x' : null))).toContain('<img src="/x"><img src="cid:y">');
  });
});
