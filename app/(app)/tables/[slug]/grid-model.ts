/** Shared pieces of the data grid: its props (the header rows pick theirs), its measurements, the state of a cell being edited, and cell error text. */
import type { ColumnSizingState, RowSelectionState, VisibilityState } from '@tanstack/react-table';
import type { ReactNode } from 'react';
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';
import type { Column, Row, SortDir, Table } from '../_lib/api';

export interface GridProps {
  table: Table;
  rows: Row[];
  offset: number;
  total: number;
  isAdmin: boolean;
  sort: { key: string; dir: SortDir } | null;
  onSort: (key: string, dir: SortDir | null) => void;
  hidden: VisibilityState;
  onHiddenChange: (next: VisibilityState) => void;
  /** Widths set by dragging a header's edge. */
  widths: ColumnSizingState;
  onWidthsChange: (next: ColumnSizingState) => void;
  selection: RowSelectionState;
  onSelectionChange: (next: RowSelectionState) => void;
  onFilterColumn: (column: Column) => void;
  onEditColumn: (column: Column) => void;
  onRemoveColumn: (column: Column) => void;
  onMoveColumn: (column: Column, by: -1 | 1) => void;
  onAnnounce: (message: string) => void;
  busy: boolean;
  /** Shown under the header when the page has no rows. */
  empty?: ReactNode;
}

export const rowHeight = 36;
export const headerHeight = 38;
export const selectWidth = 84;

export interface Draft {
  text: string;
  error: string | null;
  saving: boolean;
}

export interface Position {
  /** -1 is the header row. */
  row: number;
  /** 0 is the selection column, then the visible columns. */
  col: number;
}

export interface Editing {
  rowId: string;
  key: string;
  caretAtEnd: boolean;
}

export const cellId = (rowId: string, key: string) => `${rowId}:${key}`;

/** The sentence explaining why the service refused a cell. */
export function cellErrorText(error: unknown, columnKey: string, t: Dictionary): string {
  const info = appErrorOf(error);
  if (info?.code === 'tables.invalid_cells') {
    const problems = Array.isArray(info.details.problems) ? (info.details.problems as { column?: string; reason?: string; message?: string }[]) : [];
    const problem = problems.find((p) => p.column === columnKey) ?? problems[0];
    if (problem) {
      const translated = problem.reason ? (t.tables.problems as Record<string, string>)[problem.reason] : undefined;
      return translated ?? problem.message ?? describeError(error, t);
    }
  }
  if (info?.code === 'tables.duplicate_key') return t.tables.problems.duplicate_key;
  return describeError(error, t);
}
