import { describe, expect, it } from 'vitest';
import { buildSrcdoc, frameCsp, frameHeightBounds, frameHeightFor, frameSandbox, textToHtml } from './srcdoc';

describe('reading frame document', () => {
  it('puts the strict policy first, with https: images only when allowed', () => {
    expect(frameCsp(false)).toBe("default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'");
    expect(frameCsp(true)).toBe("default-src 'none'; img-src data: cid: https:; style-src 'unsafe-inline'");
    const doc = buildSrcdoc('<!DOCTYPE html><html><head><style>p{}</style></head><body><p>Hi</p></body></html>', { allowRemoteImages: false });
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<p>Hi'));
    expect(doc.startsWith('<!doctype html><html><head><meta http-equiv="Content-Security-Policy"')).toBe(true);
    expect(doc).not.toMatch(/<!DOCTYPE html><html><head><style>/);
  });

  it('the frame may only open links in a new window: no scripts, forms, modals or top navigation', () => {
    const tokens = frameSandbox.split(' ').sort();
    expect(tokens).toEqual(['allow-popups', 'allow-popups-to-escape-sandbox', 'allow-same-origin']);
    // Never both: a same-origin frame that may run scripts can lift its own sandbox.
    expect(tokens.includes('allow-scripts') && tokens.includes('allow-same-origin')).toBe(false);
  });

  it('a short mail gets a frame its own height, so its attachments and Reply show without scrolling', () => {
    expect(frameHeightFor(120.2)).toBe(121);
    expect(frameHeightFor(10)).toBe(frameHeightBounds.min);
    expect(frameHeightFor(1e7)).toBe(frameHeightBounds.max);
    expect(frameHeightFor(0)).toBeNull();
    expect(frameHeightFor(null)).toBeNull();
  });

  it('escapes plain text', () => {
    expect(textToHtml('<script>a & b</script>')).toBe('<pre style="font:inherit;margin:0">&lt;script&gt;a &amp; b&lt;/script&gt;</pre>');
  });

  it('links in plain-text mail are clickable: http, https and mailto only, in a new window without opener or referrer', () => {
    const link = (href: string, text = href) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;
    expect(textToHtml('See https://example.com/a?b=1&c=2.')).toBe(
      `<pre style="font:inherit;margin:0">See ${link('https://example.com/a?b=1&amp;c=2')}.</pre>`,
    );
    expect(textToHtml('(http://example.com/Foo_(bar)) or ann@example.com')).toBe(
      `<pre style="font:inherit;margin:0">(${link('http://example.com/Foo_(bar)')}) or ${link('mailto:ann@example.com', 'ann@example.com')}</pre>`,
    );
    expect(textToHtml('mailto:bob@example.com')).toContain(link('mailto:bob@example.com'));
    expect(textToHtml('javascript:alert(1) data:text/html,x file:///etc/passwd ftp://x.example')).not.toContain('<a ');
    // Markup in a URL stays text.
    expect(textToHtml('https://x.example/"><img src=x>')).toBe(`<pre style="font:inherit;margin:0">${link('https://x.example/')}"&gt;&lt;img src=x&gt;</pre>`);
  });
});
