/**
 * `q` in SQL (grammar in ./query.ts). Words narrow through the GIN index on `mail_messages.search`
 * (a stripped tsvector of subject, preview and sender with `@` and `.` split): the text of every
 * positive term is cut into lexemes by PostgreSQL itself, the same way the column was, and each
 * lexeme becomes a prefix (`'invoi':*`), all ANDed; a negated word becomes `!( … )`. The stored
 * vector has no positions, so a phrase or a `from:` term is then checked on the text itself
 * (`strpos` on lower-cased text: no pattern characters to escape).
 *
 * Two statements: `searchQuerySql` turns the terms into one tsquery (PostgreSQL's own quoting), which
 * the list statement then takes as a parameter.
 */
import type { SqlParams } from '../sql';
import type { SearchTerm } from './query';

/**
 * The lexemes of a text as a tsquery, ANDed: each one a prefix (`'invoi':*`) when `prefix` is true,
 * except words of one or two characters, which match whole words only (a prefix that short matches
 * nearly every message and costs a scan of the whole index for nothing).
 */
function lexemeQueryOf(text: string, prefix: boolean): string {
  const suffix = prefix ? `CASE WHEN length(lexeme) > 2 THEN ':*' ELSE '' END` : `''`;
  return `(SELECT string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''' || ${suffix}, ' & ' ORDER BY lexeme)::tsquery::text
     FROM unnest(to_tsvector('simple', translate(${text}, '@.', '  '))))`;
}

/**
 * $1: text whose words are prefixes; $2: text whose words are whole words; $3: one text per negated
 * word. Answers `prefixes`, `words` and `negatives`, each a tsquery's text or null.
 */
export const searchQuerySql = `
  SELECT ${lexemeQueryOf('$1::text', true)} AS prefixes,
         ${lexemeQueryOf('$2::text', false)} AS words,
         ARRAY(SELECT ${lexemeQueryOf('n', true)} FROM unnest($3::text[]) AS n) AS negatives`;

export interface SearchInputs {
  prefixes: string;
  words: string;
  negatives: string[];
}

/**
 * What searchQuerySql takes. Words and `from:` terms are prefixes; in a phrase, every word but the
 * last is a whole word (the phrase check then reads the text itself: the index only narrows).
 */
export function searchInputsOf(terms: SearchTerm[]): SearchInputs {
  const prefixes: string[] = [];
  const words: string[] = [];
  for (const term of terms) {
    if (term.negated) continue;
    if (term.kind !== 'phrase') {
      prefixes.push(term.text);
      continue;
    }
    const parts = term.text.split(' ');
    prefixes.push(parts.pop() ?? '');
    words.push(...parts);
  }
  return {
    prefixes: prefixes.join(' '),
    words: words.join(' '),
    negatives: terms.filter((term) => term.negated && term.kind === 'word').map((term) => term.text),
  };
}

export interface SearchQueryAnswer {
  prefixes: string | null;
  words: string | null;
  negatives: (string | null)[];
}

/** The tsquery from searchQuerySql's answer, or null when no term gave a lexeme. */
export function combineSearchQuery(answer: SearchQueryAnswer): string | null {
  const parts = [
    ...[answer.prefixes, answer.words].filter((text): text is string => Boolean(text)),
    ...answer.negatives.filter((text): text is string => Boolean(text)).map((text) => `!(${text})`),
  ];
  return parts.length ? parts.join(' & ') : null;
}

/** A prepared `q`: the tsquery (null: none) and the text checks of phrases and `from:` terms. */
export interface PreparedSearch {
  tsquery: string | null;
  checks: SearchTerm[];
}

export function prepareSearch(terms: SearchTerm[], tsquery: string | null): PreparedSearch {
  return { tsquery, checks: terms.filter((term) => term.kind !== 'word') };
}

/**
 * Up to this many matching messages, a list is built from the matches themselves (read through the
 * search index, then sorted); beyond it, the list walks its own index newest first and checks each
 * candidate, which then finds a page quickly. PostgreSQL cannot estimate a prefix query's
 * selectivity (it assumes 2 % whatever the word), so the statement decides at run time, counting
 * at most this many matches + 1 (see the lists' statements).
 */
export const fewMatches = 1000;

/** How many of the newest rows a search list checks one by one before it turns to the search index. */
export const walkedFirst = 2000;

/** The two thresholds of a search list; tests set small ones to take every path on a few rows. */
export interface SearchTuning {
  walkedFirst: number;
  fewMatches: number;
}

export const searchTuning: SearchTuning = { walkedFirst, fewMatches };

/** Whether the search can be read from the search index (it has a positive word; negations alone cannot). */
export function usesSearchIndex(search: PreparedSearch | null): boolean {
  return Boolean(search?.tsquery && !search.tsquery.startsWith('!'));
}

/** Conditions on a message row (alias `m`) for a prepared `q`; null when it filters nothing. */
export function searchConditionSql(search: PreparedSearch, params: SqlParams): string | null {
  const conditions: string[] = [];
  if (search.tsquery) conditions.push(`m.search @@ ${params.add(search.tsquery, 'tsquery')}`);
  for (const check of search.checks) {
    const haystack =
      check.kind === 'from'
        ? `lower(concat_ws(' ', m.from_name, m.from_email))`
        : `lower(concat_ws(' ', m.subject, m.snippet, m.from_name, m.from_email))`;
    conditions.push(`strpos(${haystack}, lower(${params.add(check.text, 'text')})) ${check.negated ? '=' : '>'} 0`);
  }
  return conditions.length ? conditions.join(' AND ') : null;
}
