import { describe, expect, it } from 'vitest';
import { categoriesOf, filterTemplates, foldText } from './filter';

const templates = [
  { name: 'Daily digest', description: 'A résumé of the day’s mail', category: 'digests' },
  { name: 'Invoice extraction', description: 'Reads totals into a table', category: 'extraction' },
  { name: 'Follow up', description: 'Reminds you after three days', category: 'follow-up' },
  { name: 'Free form', description: '', category: null },
];

describe('filterTemplates', () => {
  it.each([
    ['', 'all', ['Daily digest', 'Invoice extraction', 'Follow up', 'Free form']],
    ['digest', 'all', ['Daily digest']],
    ['RESUME', 'all', ['Daily digest']],
    ['table totals', 'all', ['Invoice extraction']],
    ['table day', 'all', []],
    ['', 'extraction', ['Invoice extraction']],
    ['', 'none', ['Free form']],
    ['digest', 'extraction', []],
    ['   ', 'follow-up', ['Follow up']],
  ])('query %j in %s', (query, category, names) => {
    expect(filterTemplates(templates, { query, category }).map((template) => template.name)).toEqual(names);
  });
});

describe('categoriesOf', () => {
  it('lists present categories in catalogue order, unknown ones after, then none', () => {
    expect(categoriesOf([...templates, { name: 'x', description: '', category: 'zzz-custom' }])).toEqual(['follow-up', 'extraction', 'digests', 'zzz-custom', 'none']);
    expect(categoriesOf([])).toEqual([]);
  });

  it('folds case and accents', () => {
    expect(foldText('Résumé Été')).toBe('resume ete');
  });
});
