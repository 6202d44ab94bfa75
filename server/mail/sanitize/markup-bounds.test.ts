import { describe, expect, it } from 'vitest';
import { boundMarkup, type MarkupLimits } from './markup-bounds';

const depth = (maxDepth: number): MarkupLimits => ({ maxDepth, maxElements: 1_000_000 });
const bound = (html: string, limits: MarkupLimits) => boundMarkup(html, limits).html;

describe('boundMarkup', () => {
  it.each([
    ['shallow markup', '<div><p>a<p>b</div>'],
    ['implied end tags do not count', `${'<p>'.repeat(50)}${'<li>'.repeat(50)}${'<td>'.repeat(50)}`],
    ['void elements do not count', `<div>${'<br><img src=x><hr>'.repeat(50)}</div>`],
    ['markup inside raw text is not counted', `<div><style>${'<div>'.repeat(50)}</style></div>`],
    ['markup inside comments is not counted', `<div><!-- ${'<div>'.repeat(50)} --></div>`],
    ['no complete tag', '<div'],
  ])('leaves %s unchanged', (_label, html) => {
    expect(boundMarkup(html, depth(10))).toEqual({ html, truncated: false });
  });

  it('removes opening tags beyond the depth and their end tags', () => {
    const html = `${'<div>'.repeat(5)}<span>x</span>${'</div>'.repeat(5)}<b>after</b>`;
    expect(bound(html, depth(3))).toBe('<div><div><div>x</div></div></div><b>after</b>');
  });

  it('counts self-closing syntax as an opening tag, as the HTML parser does', () => {
    expect(bound('<div/><div/><div/>x', depth(2))).toBe('<div/><div/>x');
  });

  it('is linear on a run of "<" without ">"', () => {
    const html = `${'<a'.repeat(200_000)}>`;
    expect(bound(html, depth(10))).toBe(html);
  });

  it('flattens 100,000 levels', () => {
    const out = bound(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`, depth(256));
    expect(out).toBe(`${'<div>'.repeat(256)}x${'</div>'.repeat(256)}`);
  });

  it.each([
    ['cuts before the opening tag past the element bound', '<p>a</p><p>b</p><br><p>c</p>', 3, '<p>a</p><p>b</p><br>', true],
    ['counts void, implied and raw-text elements', '<br><img><style>p{}</style><td>x', 3, '<br><img><style>p{}</style>', true],
    ['does not count end tags', '<p>a</p></p></p>', 1, '<p>a</p></p></p>', false],
    ['counts elements before a depth cut', `<b><b><b>x</b></b></b><i>y</i>`, 3, '<b><b>x</b></b>', true],
  ])('%s', (_label, html, maxElements, out, truncated) => {
    expect(boundMarkup(html, { maxDepth: 2, maxElements })).toEqual({ html: out, truncated });
  });
});
