'use client';

/**
 * The rows the table page shows: the view state from the address (conditions and sort on columns that
 * no longer exist dropped), the page of rows it asks for, and the selection, cleared on each new page,
 * search or filter. A page past the end steps back to the last one.
 */
import type { RowSelectionState } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { errorCodeOf } from '@/app/lib/errors';
import { useRows, type Column, type Table } from '../_lib/api';
import { conditionsForColumns } from '../_lib/filters';
import { useRowsParams, useViewState } from './use-view-state';

/** Orders that are not a column: creation (the default) and last update. */
const metaSorts: readonly string[] = ['createdAt', 'updatedAt'];

export function useTableRows(table: Table) {
  const { t } = useI18n();
  const { state, update } = useViewState();
  const [selection, setSelection] = useState<RowSelectionState>({});

  // The rows' own dates filter like date-time columns.
  const filterColumns = useMemo<Column[]>(() => {
    const dates = (['createdAt', 'updatedAt'] as const).map((key) => ({
      key,
      label: t.tables.filter[key],
      type: 'datetime' as const,
      isKey: false,
      required: false,
      options: [],
      width: null,
      description: null,
    }));
    return [...table.columns, ...dates];
  }, [table.columns, t]);
  // Conditions and sort on columns that no longer exist are dropped.
  const filters = useMemo(() => conditionsForColumns(state.filters, filterColumns), [state.filters, filterColumns]);
  const sortKey = state.sort && (metaSorts.includes(state.sort) || table.columns.some((column) => column.key === state.sort)) ? state.sort : null;
  const view = useMemo(() => ({ ...state, filters, sort: sortKey }), [state, filters, sortKey]);
  const params = useRowsParams(table.id, view);
  const rows = useRows(table.columns.length > 0 ? params : null);
  const filtered = Boolean(view.q.trim()) || filters.length > 0;

  // A new page, search or filter starts with nothing selected.
  const paramsText = JSON.stringify(params);
  useEffect(() => setSelection({}), [paramsText]);

  // Rows removed elsewhere: the page asked for is past the end; go to the last one.
  const outOfRange = rows.isError && errorCodeOf(rows.error) === 'tables.page_out_of_range';
  useEffect(() => {
    if (outOfRange) update({ offset: 0 });
  }, [outOfRange, update]);
  useEffect(() => {
    const data = rows.data;
    if (!data || rows.isPlaceholderData) return;
    if (data.total > 0 && view.offset >= data.total) update({ offset: Math.floor((data.total - 1) / view.limit) * view.limit });
  }, [rows.data, rows.isPlaceholderData, view.offset, view.limit, update]);

  return { view, params, update, filterColumns, filters, sortKey, rows, filtered, outOfRange, selection, setSelection };
}
