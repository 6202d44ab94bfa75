/**
 * The grammar of `q` for the threads and messages lists (one grammar for both):
 *
 * - `word`: a word prefix of the subject, the preview or the sender (name or address); every word
 *   must match (AND);
 * - `"a quoted phrase"`: those characters in that order (case-insensitive), in the same fields;
 * - `from:word` or `from:"Some Name"`: the sender only (name or address contains it);
 * - `-term`: excludes what the term matches (`-word`, `-"phrase"`, `-from:x`).
 *
 * An unclosed quote runs to the end. A term is at most what the 200-character `q` allows; more than
 * 10 terms is refused by the caller. Pure: no SQL here (see ./sql.ts).
 */

export interface SearchTerm {
  kind: 'word' | 'phrase' | 'from';
  text: string;
  negated: boolean;
}

export const maxSearchTerms = 10;

const isSpace = (char: string) => /\s/u.test(char);

/** The terms of `q` in order; empty strings and lone operators give no term. */
export function parseSearchQuery(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let at = 0;
  const length = q.length;
  while (at < length) {
    while (at < length && isSpace(q[at])) at += 1;
    if (at >= length) break;
    let negated = false;
    if (q[at] === '-' && at + 1 < length && !isSpace(q[at + 1])) {
      negated = true;
      at += 1;
    }
    let kind: SearchTerm['kind'] = 'word';
    if (q.slice(at, at + 5).toLowerCase() === 'from:' && at + 5 < length && !isSpace(q[at + 5])) {
      kind = 'from';
      at += 5;
    }
    let text: string;
    if (q[at] === '"') {
      const close = q.indexOf('"', at + 1);
      const end = close < 0 ? length : close;
      text = q.slice(at + 1, end);
      at = end + 1;
      if (kind === 'word') kind = 'phrase';
    } else {
      const start = at;
      while (at < length && !isSpace(q[at])) at += 1;
      text = q.slice(start, at);
    }
    text = text.trim().replace(/\s+/gu, ' ');
    if (text !== '') terms.push({ kind, text, negated });
  }
  return terms;
}
