import { describe, expect, it } from 'vitest';
import { bodyTextOf, htmlInputChars, utf8Prefix } from './body-text';

describe('utf8Prefix', () => {
  it.each([
    ['plain ASCII under the bound', 'hello', 10, 'hello', false],
    ['ASCII cut', 'hello world', 5, 'hello', true],
    ['a two-byte character never split', 'aéb', 2, 'a', true],
    ['three-byte characters', '€€€', 7, '€€', true],
    ['a surrogate pair kept whole or dropped', 'a😀b', 4, 'a', true],
    ['a surrogate pair that fits', 'a😀b', 5, 'a😀', true],
    ['exactly the bound', 'ab€', 5, 'ab€', false],
  ])('%s', (_name, text, max, expected, cut) => {
    expect(utf8Prefix(text, max)).toEqual({ text: expected, cut });
    expect(Buffer.byteLength(utf8Prefix(text, max).text)).toBeLessThanOrEqual(max);
  });
});

describe('bodyTextOf', () => {
  it('prefers the plain-text body', () => {
    expect(bodyTextOf({ text: 'Hello\nWorld', html: '<p>Other</p>' }, 100)).toEqual({ text: 'Hello\nWorld', truncated: false });
  });

  it('reduces an HTML-only body to text: paragraphs, line breaks, links; no images', () => {
    const html = '<html><head><style>p{color:red}</style><script>x()</script></head><body><p>Invoice <b>INV-7</b></p><p>Total: EUR 12.00<br>Thanks</p><img src="cid:logo"><a href="https://pay.example/7">Pay online</a></body></html>';
    expect(bodyTextOf({ text: null, html }, 1_000)).toEqual({ text: 'Invoice INV-7\n\nTotal: EUR 12.00\nThanks\n\nPay online [https://pay.example/7]', truncated: false });
  });

  it('takes the HTML when the text body is blank', () => {
    expect(bodyTextOf({ text: '  \n ', html: '<p>From HTML</p>' }, 100)).toEqual({ text: 'From HTML', truncated: false });
  });

  it('is null without a body', () => {
    expect(bodyTextOf({ text: null, html: null }, 100)).toBeNull();
    expect(bodyTextOf({ text: '', html: '   ' }, 100)).toBeNull();
  });

  it('cuts on a character boundary at the byte bound and says so', () => {
    const text = 'é'.repeat(40_000);
    const bounded = bodyTextOf({ text, html: null }, 65_536)!;
    expect(bounded.truncated).toBe(true);
    expect(bounded.text).toBe('é'.repeat(32_768));
    expect(bodyTextOf({ text: 'short', html: null, textCut: true }, 100)).toEqual({ text: 'short', truncated: true });
  });

  it('drops control characters but tabs and line breaks', () => {
    expect(bodyTextOf({ text: 'a\u0000b\u0007c\td\r\ne\u007f', html: null }, 100)).toEqual({ text: 'abc\td\r\ne', truncated: false });
  });

  it('converts at most the first MiB of HTML, deep nesting included, and says so', () => {
    const html = `<p>start</p>${'<div>'.repeat(5_000)}deep${'</div>'.repeat(5_000)}<p>${'x'.repeat(htmlInputChars)}</p><p>tail</p>`;
    const converted = bodyTextOf({ text: null, html }, 2 * htmlInputChars)!;
    expect(converted.truncated).toBe(true);
    expect(converted.text.startsWith('start')).toBe(true);
    expect(converted.text).not.toContain('tail');
  });
});
