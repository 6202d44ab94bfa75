'use client';

/**
 * What the grid shows (page, page size, sort, search, filters) as one state kept in the address, so a
 * reload or a shared link shows the same rows. Every change except paging goes back to the first page.
 */
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FilterCondition, FilterOp, Match, RowsParams, SortDir } from '../_lib/api';
import { maxConditions } from '../_lib/filters';

export const pageSizes = [50, 100, 200, 500] as const;
export const defaultPageSize = 100;
/** The service's ceiling on `offset`. */
export const maxOffset = 100_000;

export interface ViewState {
  offset: number;
  limit: number;
  sort: string | null;
  dir: SortDir;
  q: string;
  filters: FilterCondition[];
  match: Match;
}

const ops: FilterOp[] = ['eq', 'neq', 'contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'not_empty', 'in'];

function parseFilters(text: string | null): FilterCondition[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (item): item is FilterCondition =>
          typeof item === 'object' && item !== null && typeof item.column === 'string' && ops.includes(item.op),
      )
      .slice(0, maxConditions);
  } catch {
    return [];
  }
}

function readState(params: URLSearchParams): ViewState {
  const limit = Number(params.get('limit'));
  const offset = Number(params.get('offset'));
  const validLimit = (pageSizes as readonly number[]).includes(limit) ? limit : defaultPageSize;
  return {
    limit: validLimit,
    offset: Number.isInteger(offset) && offset > 0 && offset <= maxOffset ? offset - (offset % validLimit) : 0,
    sort: params.get('sort') || null,
    dir: params.get('dir') === 'desc' ? 'desc' : 'asc',
    q: params.get('q') ?? '',
    filters: parseFilters(params.get('filter')),
    match: params.get('match') === 'any' ? 'any' : 'all',
  };
}

function writeState(state: ViewState): string {
  const params = new URLSearchParams();
  if (state.q) params.set('q', state.q);
  if (state.filters.length) params.set('filter', JSON.stringify(state.filters));
  if (state.filters.length > 1 && state.match === 'any') params.set('match', 'any');
  if (state.sort) {
    params.set('sort', state.sort);
    params.set('dir', state.dir);
  }
  if (state.limit !== defaultPageSize) params.set('limit', String(state.limit));
  if (state.offset) params.set('offset', String(state.offset));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function useViewState() {
  const searchParams = useSearchParams();
  const [state, setState] = useState<ViewState>(() => readState(new URLSearchParams(searchParams.toString())));

  useEffect(() => {
    const query = writeState(state);
    if (query !== window.location.search && !(query === '' && window.location.search === '')) {
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${query}`);
    }
  }, [state]);

  /** Changes what is shown; back to the first page unless the change is the page itself. */
  const update = useCallback((patch: Partial<ViewState>) => {
    setState((current) => ({ ...current, offset: 0, ...patch }));
  }, []);

  return { state, update };
}

/** The rows query's input for a view. */
export function useRowsParams(tableId: string | undefined, state: ViewState): RowsParams | null {
  return useMemo(() => {
    if (!tableId) return null;
    return {
      id: tableId,
      offset: state.offset,
      limit: state.limit,
      ...(state.sort ? { sort: state.sort, dir: state.dir } : {}),
      ...(state.q.trim() ? { q: state.q.trim() } : {}),
      ...(state.filters.length ? { filter: JSON.stringify(state.filters), match: state.match } : {}),
    };
  }, [tableId, state]);
}
