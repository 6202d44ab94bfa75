/**
 * Bounds on the markup, applied to the HTML text before it is parsed, because jsdom's cost follows
 * the elements rather than the bytes:
 *
 *   - elements: 100,000 of them took about 2 s and several hundred MB here, whatever their kind;
 *     the text is cut before the opening tag past `maxElements` (a 300 KB newsletter has 5,000 to
 *     15,000 elements);
 *   - nesting: tree building costs time proportional to the depth for every element inserted, so
 *     60 KB of `<div>` (10,000 levels) took 6.6 s to parse, and 100,000 levels overflowed the stack.
 *     Browsers cap the depth too (Chromium's parser stops nesting at 512).
 *
 * The scan is a cheap approximation of the parser, linear in the text: opening tags of elements that
 * need an end tag raise the depth, end tags lower it; void elements and elements whose end tag the
 * parser implies (`p`, `li`, `td`, `tr`, `option`, …) are not counted, raw-text elements (`style`,
 * `script`, `textarea`, …) and comments are skipped. An opening tag beyond `maxDepth` is removed
 * from the text, with the end tag that matches it. Only layout suffers when the approximation is
 * off, never safety: whatever text comes out is sanitised like any other.
 */

const voidOrImplied = new Set([
  ...['area', 'base', 'basefont', 'bgsound', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'image'],
  ...['p', 'li', 'dt', 'dd', 'td', 'th', 'tr', 'tbody', 'thead', 'tfoot', 'option', 'optgroup', 'rb', 'rt', 'rp', 'rtc', 'caption', 'colgroup'],
  ...['html', 'head', 'body'],
]);
const rawText = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);

export interface MarkupLimits {
  /** Typical mail nests 20 to 60 levels (tables in tables); 256 leaves room and bounds the cost. */
  maxDepth: number;
  /** Opening tags kept; the text is cut before the next one. */
  maxElements: number;
}

export const markupLimits: MarkupLimits = { maxDepth: 256, maxElements: 50_000 };

interface Cut {
  from: number;
  to: number;
}

/**
 * `html` with opening tags deeper than `maxDepth` (and their end tags) removed, cut before the
 * opening tag past `maxElements` (`truncated`); the same string when within both.
 */
export function boundMarkup(html: string, limits: MarkupLimits = markupLimits): { html: string; truncated: boolean } {
  const { maxDepth, maxElements } = limits;
  const cuts: Cut[] = [];
  /** Elements removed for depth and not closed yet, by name. */
  const removedOpen = new Map<string, number>();
  let depth = 0;
  let elements = 0;
  let end = html.length;
  // The next `>` at or after `at`, remembered: `at` only moves forward, so a run of `<` without `>`
  // (`<a<a<a…`) costs one scan, not one per `<`.
  let gt = -1;
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length - 1) {
    if (html.startsWith('<!--', at)) {
      const commentEnd = html.indexOf('-->', at + 4);
      if (commentEnd === -1) break;
      at = html.indexOf('<', commentEnd + 3);
      continue;
    }
    const closing = html[at + 1] === '/';
    const nameMatch = /^[a-zA-Z][^\s/>]*/.exec(html.slice(at + (closing ? 2 : 1), at + (closing ? 2 : 1) + 64));
    if (gt < at) gt = html.indexOf('>', at);
    const tagEnd = gt;
    if (tagEnd === -1) break; // no complete tag remains anywhere after this point
    if (!nameMatch) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    let next = tagEnd + 1;
    if (closing) {
      const removed = removedOpen.get(name) ?? 0;
      if (removed > 0) {
        removedOpen.set(name, removed - 1);
        cuts.push({ from: at, to: tagEnd + 1 });
      } else if (!voidOrImplied.has(name) && depth > 0) {
        depth -= 1;
      }
    } else if ((elements += 1) > maxElements) {
      end = at;
      break;
    } else if (rawText.has(name)) {
      // Its text is not markup: go past its end tag (none: the rest of the text is its content).
      const endTag = new RegExp(`</${name}`, 'gi'); // name is one of rawText's plain words
      endTag.lastIndex = tagEnd + 1;
      const close = endTag.exec(html)?.index ?? -1;
      if (close === -1) break;
      const closeEnd = html.indexOf('>', close);
      if (closeEnd === -1) break;
      next = closeEnd + 1;
    } else if (!voidOrImplied.has(name)) {
      if (depth >= maxDepth) {
        removedOpen.set(name, (removedOpen.get(name) ?? 0) + 1);
        cuts.push({ from: at, to: tagEnd + 1 });
      } else {
        depth += 1;
      }
    }
    at = html.indexOf('<', next);
  }
  const truncated = end < html.length;
  if (cuts.length === 0) return { html: truncated ? html.slice(0, end) : html, truncated };
  const pieces: string[] = [];
  let from = 0;
  for (const cut of cuts) {
    pieces.push(html.slice(from, cut.from));
    from = cut.to;
  }
  pieces.push(html.slice(from, end));
  return { html: pieces.join(''), truncated };
}
