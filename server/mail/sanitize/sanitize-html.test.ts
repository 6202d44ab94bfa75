import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { hostileVectors } from './fixtures/hostile-vectors';
import { findUnsafe } from './fixtures/unsafe-output';
import { maxInputChars, SANITIZER_VERSION, sanitizeMailHtml } from './sanitize-html';

const { window } = new JSDOM('');
const parse = (html: string) => new window.DOMParser().parseFromString(html, 'text/html');
const bodyOf = (html: string) => parse(html).body.innerHTML;
const headOf = (html: string) => parse(html).head.innerHTML;
const link = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

describe('sanitizeMailHtml: what a body keeps', () => {
  it.each([
    ['plain formatting', '<p><b>bold</b> <i>it</i> <u>u</u></p><ul><li>one</li></ul>', '<p><b>bold</b> <i>it</i> <u>u</u></p><ul><li>one</li></ul>'],
    ['layout tables and their attributes', '<table width="600" cellpadding="0" bgcolor="#ffffff" align="center"><tr><td valign="top">x</td></tr></table>', '<table width="600" cellpadding="0" bgcolor="#ffffff" align="center"><tbody><tr><td valign="top">x</td></tr></tbody></table>'],
    ['an https link, opened apart from the application', '<a href="https://example.com/a?b=1&amp;c=2">x</a>', link('https://example.com/a?b=1&amp;c=2', 'x')],
    ['an http link', '<a href="http://example.com">x</a>', link('http://example.com/', 'x')],
    ['a mailto link', '<a href="mailto:someone@example.com?subject=Hi">x</a>', link('mailto:someone@example.com?subject=Hi', 'x')],
    ['a link given its own target and rel', '<a href="https://example.com/" target="_self" rel="opener">x</a>', '<a href="https://example.com/" rel="noopener noreferrer" target="_blank">x</a>'],
    ['a protocol-relative link, as https', '<a href="//example.com/p">x</a>', link('https://example.com/p', 'x')],
    ['a javascript: link, without its URL', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['a relative link, without its URL', '<a href="/api/v1/auth/me">x</a>', '<a>x</a>'],
    ['a fragment link, without its URL', '<a href="#top">x</a>', '<a>x</a>'],
    ['a tel: link, without its URL', '<a href="tel:+33123456789">x</a>', '<a>x</a>'],
    ['an inline image by content id, in canonical form', '<img src="cid:logo@example.com" alt="logo">', '<img alt="logo" src="cid:logo%40example.com">'],
    ['an inline image by content id with angle brackets', '<img src="cid:%3Cpart1%3E">', '<img src="cid:part1">'],
    ['a base64 PNG data image', '<img src="data:image/png;base64,iVBORw0KGgo=">', '<img src="data:image/png;base64,iVBORw0KGgo=">'],
    ['a data image that is not base64 PNG/GIF/JPEG/WebP, without its source', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', '<img>'],
    ['a relative image, without its source', '<img src="logo.png">', '<img>'],
    ['text of removed form controls', '<form action="https://x.example"><label>Name</label><input name="n"><button>Send</button></form>', '<label>Name</label>Send'],
    ['no comments, conditional ones included', '<!--[if mso]><p>mso</p><![endif]--><p>x</p><!-- note -->', '<p>x</p>'],
    ['no data- attributes of the sender', '<p data-id="1" data-remote-src="https://t.example/x.png">x</p>', '<p>x</p>'],
    ['no srcset', '<img src="cid:a" srcset="https://t.example/a.png 2x">', '<img src="cid:a">'],
  ])('%s', (_label, html, body) => {
    const result = sanitizeMailHtml(html);
    expect(bodyOf(result.html)).toBe(body);
    expect(result.truncated).toBe(false);
  });

  it('answers a whole document, with head and body, whatever the input', () => {
    for (const html of ['', 'just text', '<frameset><frame src="https://x.example"></frameset>', '<html><head><title>t</title></head></html>']) {
      const { html: out } = sanitizeMailHtml(html);
      expect(out).toMatch(/^<html><head>.*<\/head><body>.*<\/body><\/html>$/s);
      expect(parse(out).documentElement.outerHTML).toBe(out);
    }
  });

  it('keeps <style> in <head>, rebuilt without what loads or executes', () => {
    const html =
      '<html><head><style><!-- @import url(https://t.example/x.css); body{margin:0;background:url(https://t.example/bg.png)} ' +
      '.x{width:expression(alert(1));color:#333} @media only screen and (max-width:600px){.col{width:100% !important}} ' +
      '@font-face{font-family:f;src:url(https://t.example/f.woff)} --></style></head><body><p class="x">x</p></body></html>';
    const result = sanitizeMailHtml(html);
    expect(headOf(result.html)).toBe(
      '<style>body{margin: 0; background: none}\n.x{color: #333}\n@media only screen and (max-width:600px){\n.col{width:100% !important}\n}</style>',
    );
    expect(result.hasRemoteImages).toBe(true);
  });

  it('keeps style attributes, rebuilt', () => {
    const { html } = sanitizeMailHtml('<div style="padding:10px; font-family: Arial, sans-serif; behavior:url(x.htc); width: expression(1)">x</div>');
    expect(html).toContain('style="padding: 10px; font-family: Arial, sans-serif"');
  });
});

describe('sanitizeMailHtml: remote resources', () => {
  it.each([
    ['img src', '<img src="https://t.example/p.gif" width="1">', '<img width="1" data-remote-src="https://t.example/p.gif">', '<img width="1" src="https://t.example/p.gif">'],
    ['protocol-relative img src', '<img src="//t.example/p.gif">', '<img data-remote-src="https://t.example/p.gif">', '<img src="https://t.example/p.gif">'],
    ['table background', '<table background="http://t.example/bg.jpg"><tr><td>x</td></tr></table>', '<table data-remote-background="http://t.example/bg.jpg"><tbody><tr><td>x</td></tr></tbody></table>', '<table background="http://t.example/bg.jpg"><tbody><tr><td>x</td></tr></tbody></table>'],
    ['video poster (an image) and src (not one)', '<video poster="https://t.example/p.jpg" src="https://t.example/v.mp4"></video>', '<video data-remote-src="https://t.example/v.mp4" data-remote-poster="https://t.example/p.jpg"></video>', '<video data-remote-src="https://t.example/v.mp4" poster="https://t.example/p.jpg"></video>'],
    ['audio src (never an image)', '<audio src="https://t.example/a.mp3"></audio>', '<audio data-remote-src="https://t.example/a.mp3"></audio>', '<audio data-remote-src="https://t.example/a.mp3"></audio>'],
    ['CSS background image', '<div style="background-image:url(\'https://t.example/b.png\')">x</div>', '<div style="background-image: none">x</div>', '<div style="background-image: url(&quot;https://t.example/b.png&quot;)">x</div>'],
    ['CSS list image (not a background)', '<ul style="list-style-image:url(https://t.example/d.png)"><li>x</li></ul>', '<ul style="list-style-image: none"><li>x</li></ul>', '<ul style="list-style-image: none"><li>x</li></ul>'],
  ])('%s: moved aside by default, shown on request when an image', (_label, html, blocked, allowed) => {
    const plain = sanitizeMailHtml(html);
    expect(bodyOf(plain.html)).toBe(blocked);
    expect(plain.hasRemoteImages).toBe(true);
    const shown = sanitizeMailHtml(html, { allowRemoteImages: true });
    expect(bodyOf(shown.html)).toBe(allowed);
    expect(shown.hasRemoteImages).toBe(true);
  });

  it.each([
    ['links', '<a href="https://example.com">x</a>'],
    ['inline images', '<img src="cid:a"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'],
    ['plain text', 'hello'],
  ])('reports no remote images for %s', (_label, html) => {
    expect(sanitizeMailHtml(html).hasRemoteImages).toBe(false);
  });
});

describe('sanitizeMailHtml: bounds', () => {
  it(`cuts a body over ${maxInputChars} characters and says so, without throwing`, () => {
    const html = `<p>${'a'.repeat(maxInputChars)}</p><img src="https://t.example/after-the-cut.png">`;
    const result = sanitizeMailHtml(html);
    expect(result.truncated).toBe(true);
    expect(result.hasRemoteImages).toBe(false);
    expect(parse(result.html).body.textContent).toHaveLength(maxInputChars - 3);
  });

  it('never cuts between the two halves of a surrogate pair', () => {
    const html = `${'a'.repeat(maxInputChars - 1)}😀 tail`;
    const result = sanitizeMailHtml(html);
    expect(result.truncated).toBe(true);
    expect(result.html.isWellFormed()).toBe(true);
    expect(result.html).not.toContain('😀');
  });

  it('flattens nesting deeper than the bound instead of feeding it to the parser', () => {
    const html = `${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`;
    const result = sanitizeMailHtml(html);
    expect(result.truncated).toBe(false);
    expect(parse(result.html).body.textContent).toBe('deep');
    expect(parse(result.html).querySelectorAll('div').length).toBeLessThanOrEqual(256);
  });

  it('cuts a body before its 50,001st element and says so', () => {
    const result = sanitizeMailHtml(`${'<br>'.repeat(60_000)}<img src="https://t.example/after-the-cut.png">`);
    expect(result.truncated).toBe(true);
    expect(result.hasRemoteImages).toBe(false);
    expect(parse(result.html).querySelectorAll('br')).toHaveLength(50_000);
  });

  it('reads a flood of unfinished tags as text', () => {
    const result = sanitizeMailHtml(`${'<a'.repeat(100_000)}`);
    expect(findUnsafe(parse(result.html), { allowRemoteImages: false })).toEqual([]);
  });

  it('answers an empty document for something that is not a string', () => {
    expect(sanitizeMailHtml(undefined as unknown as string).html).toBe('<html><head></head><body></body></html>');
  });

  it('has a version to key caches with', () => {
    expect(SANITIZER_VERSION).toMatch(/^\S+$/);
  });
});

describe('sanitizeMailHtml: hostile vectors', () => {
  it('has at least 100 vectors with distinct ids', () => {
    expect(hostileVectors.length).toBeGreaterThanOrEqual(100);
    expect(new Set(hostileVectors.map((vector) => vector.id)).size).toBe(hostileVectors.length);
  });

  describe.each([false, true])('allowRemoteImages: %s', (allowRemoteImages) => {
    it.each(hostileVectors.map((vector) => [vector.id, vector] as const))('%s', (_id, vector) => {
      const result = sanitizeMailHtml(vector.html, { allowRemoteImages });
      const document = parse(result.html);
      expect(findUnsafe(document, { allowRemoteImages })).toEqual([]);
      // Reads back as written: what the frame's parser builds is what was checked (no mutation XSS).
      expect(document.documentElement.outerHTML).toBe(result.html);
      if (vector.remote) expect(result.hasRemoteImages).toBe(true);
    });
  });
});
