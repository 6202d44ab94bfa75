import { describe, expect, it } from 'vitest';
import { filtersFromSearch, noFilters, queryOfFilters, searchOfFilters } from './filters';

const workflowId = '0b7d6c1e-4d7e-4b39-9a53-3c6f1d2e8a10';

describe('execution filters', () => {
  it('reads the query string, dropping what is not valid', () => {
    expect(filtersFromSearch({ workflowId, status: 'failed', simulated: 'false', q: '  invoice ' })).toEqual({ workflowId, status: 'failed', simulated: 'false', effects: '', q: 'invoice' });
    expect(filtersFromSearch({ workflowId: 'nope', status: 'exploded', simulated: 'yes', q: ['a', 'b'] })).toEqual({ ...noFilters, q: 'a' });
  });

  it('reads and writes the effects filter (issue 19 §3: runs that acted vs runs that did nothing), dropping other values', () => {
    expect(filtersFromSearch({ effects: 'without' })).toEqual({ ...noFilters, effects: 'without' });
    expect(filtersFromSearch({ effects: 'maybe' })).toEqual(noFilters);
    expect(searchOfFilters({ ...noFilters, effects: 'with' })).toBe('?effects=with');
    expect(queryOfFilters({ ...noFilters, effects: 'without' })).toEqual({ effects: 'without' });
  });

  it('writes back only the filters that are set, for the URL and the query', () => {
    const filters = { ...noFilters, status: 'running' as const, q: 'ada' };
    expect(searchOfFilters(filters)).toBe('?status=running&q=ada');
    expect(searchOfFilters(noFilters)).toBe('');
    expect(queryOfFilters({ ...filters, q: '  ' })).toEqual({ status: 'running' });
  });
});
