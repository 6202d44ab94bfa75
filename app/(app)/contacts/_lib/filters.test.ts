/** The Contacts page's filters → the list's query, and which empty state an empty list shows. */
import { describe, expect, it } from 'vitest';
import { isContactListFiltered, noContactFilters, queryOfContactFilters } from './filters';

describe('contact filters', () => {
  it('sends only what is chosen, the search trimmed and bounded', () => {
    expect(queryOfContactFilters(noContactFilters)).toEqual({ layer: 'all' });
    expect(queryOfContactFilters({ q: '  acme ', kind: 'domain', layer: 'shared', mailboxId: 'm1' })).toEqual({ layer: 'shared', q: 'acme', kind: 'domain', mailboxId: 'm1' });
    expect(queryOfContactFilters({ ...noContactFilters, q: 'x'.repeat(300) }).q).toHaveLength(200);
    expect(queryOfContactFilters({ ...noContactFilters, q: '   ' })).toEqual({ layer: 'all' });
  });

  it('counts as filtered whatever may hide an entry', () => {
    expect(isContactListFiltered(noContactFilters)).toBe(false);
    expect(isContactListFiltered({ ...noContactFilters, q: ' ' })).toBe(false);
    expect(isContactListFiltered({ ...noContactFilters, q: 'a' })).toBe(true);
    expect(isContactListFiltered({ ...noContactFilters, kind: 'contact' })).toBe(true);
    expect(isContactListFiltered({ ...noContactFilters, layer: 'member' })).toBe(true);
    expect(isContactListFiltered({ ...noContactFilters, mailboxId: 'm1' })).toBe(true);
  });
});
