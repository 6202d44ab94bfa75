import { describe, expect, it } from 'vitest';
import { filtersFromSearch, isFiltered, noFilters, queryOfFilters, searchOfFilters } from './filters';

const workflowId = '0b7d6c1e-4d7e-4b39-9a53-3c6f1d2e8a10';

describe('execution filters', () => {
  it('reads the query string, dropping what is not valid', () => {
    expect(filtersFromSearch({ workflowId, status: 'failed', simulated: 'false', q: '  invoice ' })).toEqual({ ...noFilters, workflowId, status: 'failed', simulated: 'false', q: 'invoice' });
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

  it('reads the dashboard drill-down link (workflow, status, mailbox and time window) as the list’s filters and query', () => {
    const mailboxId = '5f0c2d9a-1b2c-4d3e-8f4a-5b6c7d8e9f00';
    const filters = filtersFromSearch({ workflowId, status: 'failed', mailboxId, from: '2026-03-28T00:00:00+01:00', to: '2026-03-29T00:00:00.000Z' });
    expect(filters).toEqual({ ...noFilters, workflowId, status: 'failed', mailboxId, from: '2026-03-27T23:00:00.000Z', to: '2026-03-29T00:00:00.000Z' });
    expect(queryOfFilters(filters)).toEqual({ workflowId, status: 'failed', mailboxId, from: '2026-03-27T23:00:00.000Z', to: '2026-03-29T00:00:00.000Z' });
    expect(isFiltered(filters)).toBe(true);
  });

  it('writes the window back into the URL so a reload or a shared link keeps it, and clearing it removes both bounds', () => {
    const filters = { ...noFilters, status: 'failed' as const, from: '2026-03-28T00:00:00.000Z', to: '2026-03-29T00:00:00.000Z' };
    expect(searchOfFilters(filters)).toBe('?status=failed&from=2026-03-28T00%3A00%3A00.000Z&to=2026-03-29T00%3A00%3A00.000Z');
    expect(filtersFromSearch(Object.fromEntries(new URLSearchParams(searchOfFilters(filters))))).toEqual(filters);
    expect(searchOfFilters({ ...filters, from: '', to: '' })).toBe('?status=failed');
  });

  it('drops a malformed mailbox id and a malformed window instead of failing the list', () => {
    expect(filtersFromSearch({ mailboxId: 'inbox', from: 'yesterday', to: '2026-13-45T99:00:00Z' })).toEqual(noFilters);
    expect(isFiltered(noFilters)).toBe(false);
  });

  it('keeps the dashboard’s loopIterations=false (it counts runs without loop iterations) from the link to the query and back to the URL', () => {
    const filters = filtersFromSearch({ workflowId, status: 'failed', loopIterations: 'false' });
    expect(filters).toEqual({ ...noFilters, workflowId, status: 'failed', loopIterations: 'false' });
    expect(queryOfFilters(filters)).toEqual({ workflowId, status: 'failed', loopIterations: 'false' });
    expect(searchOfFilters(filters)).toBe(`?workflowId=${workflowId}&status=failed&loopIterations=false`);
    expect(filtersFromSearch({ loopIterations: 'sometimes' })).toEqual(noFilters);
  });
});
