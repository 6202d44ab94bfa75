/** `q` as a list statement takes it: parsed, bounded, its tsquery built by PostgreSQL (./sql.ts). */
import { appError } from '../../../core/errors/app-error';
import { runStatement } from '../repo';
import { maxSearchTerms, parseSearchQuery } from './query';
import { combineSearchQuery, prepareSearch, searchInputsOf, searchQuerySql, type PreparedSearch, type SearchQueryAnswer } from './sql';

/** Null when `q` is absent or blank (no filter). */
export async function preparedSearchOf(q: string | undefined): Promise<PreparedSearch | null> {
  const terms = parseSearchQuery(q ?? '');
  if (terms.length === 0) return null;
  if (terms.length > maxSearchTerms) {
    throw appError('request.bad_request', {
      message: `q has more than ${maxSearchTerms} terms.`,
      details: { in: 'query', issues: [{ path: 'q', code: 'too_many_terms', message: `At most ${maxSearchTerms} terms.` }] },
    });
  }
  const inputs = searchInputsOf(terms);
  const [answer] = await runStatement<SearchQueryAnswer>({ text: searchQuerySql, values: [inputs.prefixes, inputs.words, inputs.negatives] });
  return prepareSearch(terms, combineSearchQuery(answer));
}
