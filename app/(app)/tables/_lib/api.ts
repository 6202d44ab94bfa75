'use client';

/**
 * The tables section's access to the API: every tRPC call of the section goes through this file, so
 * the rest of the UI depends on these types and hooks only.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC, type RouterOutputs } from '@/app/lib/trpc';

export type Table = RouterOutputs['tables']['get']['table'];
export type Column = Table['columns'][number];
export type ColumnType = Column['type'];
export type CellValue = string | number | boolean;
export type Cells = Record<string, CellValue>;

/** Column types in the order the editors offer them. */
export const columnTypes = ['text', 'number', 'boolean', 'date', 'datetime', 'select', 'email'] as const satisfies readonly ColumnType[];

export interface ColumnInput {
  key?: string;
  label: string;
  type: ColumnType;
  isKey: boolean;
  required: boolean;
  options: string[];
  description: string | null;
}

export type FilterOp = 'eq' | 'neq' | 'contains' | 'starts_with' | 'gt' | 'gte' | 'lt' | 'lte' | 'between' | 'empty' | 'not_empty' | 'in';

export interface FilterCondition {
  column: string;
  op: FilterOp;
  value?: CellValue;
  values?: CellValue[];
}

export type Match = 'all' | 'any';
export type SortDir = 'asc' | 'desc';

export interface RowsParams {
  id: string;
  offset: number;
  limit: number;
  sort?: string;
  dir?: SortDir;
  q?: string;
  /** JSON text of the conditions (the route takes it as a query-string parameter). */
  filter?: string;
  match?: Match;
}

/** The CSV export of a view: the rows query's parameters without the page. */
export function exportHref(params: RowsParams): string {
  const { id, offset: _offset, limit: _limit, ...view } = params;
  const query = new URLSearchParams(Object.entries(view).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const text = query.toString();
  return `/api/v1/tables/${encodeURIComponent(id)}/export.csv${text ? `?${text}` : ''}`;
}

export type RowsPage = RouterOutputs['tables']['rows']['list'];
export type Row = RowsPage['rows'][number];
export type ImportPreview = RouterOutputs['tables']['csv']['preview'];
export type ImportResult = RouterOutputs['tables']['csv']['import'];

export type RejectedLine = ImportResult['rejected'][number];
export type CellProblem = RejectedLine['problems'][number];

/** Every query and mutation of the section refreshes through these. */
export function useTablesCache() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return {
    /** Structure and row counts (the list and the table). */
    tables: () =>
      Promise.all([queryClient.invalidateQueries(trpc.tables.list.queryFilter()), queryClient.invalidateQueries(trpc.tables.get.queryFilter())]),
    rows: (tableId: string) => queryClient.invalidateQueries(trpc.tables.rows.list.queryFilter({ id: tableId })),
    /** Replaces one row in every cached page of the table (an inline edit keeps its place). */
    putRow: (tableId: string, row: Row) =>
      queryClient.setQueriesData<RowsPage>(trpc.tables.rows.list.queryFilter({ id: tableId }), (page) =>
        page ? { ...page, rows: page.rows.map((current) => (current.id === row.id ? row : current)) } : page,
      ),
    putTable: (table: Table) => {
      queryClient.setQueryData(trpc.tables.get.queryKey({ id: table.id }), { table });
      queryClient.setQueryData(trpc.tables.get.queryKey({ id: table.slug }), { table });
    },
  };
}

export function useTablesList() {
  const trpc = useTRPC();
  return useQuery(trpc.tables.list.queryOptions());
}

export function useTable(ref: string) {
  const trpc = useTRPC();
  return useQuery(trpc.tables.get.queryOptions({ id: ref }));
}

export function useRows(params: RowsParams | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.tables.rows.list.queryOptions(params ?? { id: '', offset: 0, limit: 100 }),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useTableMutations() {
  const trpc = useTRPC();
  return {
    create: trpc.tables.create.mutationOptions(),
    patch: trpc.tables.patch.mutationOptions(),
    remove: trpc.tables.delete.mutationOptions(),
    addColumn: trpc.tables.columns.add.mutationOptions(),
    updateColumn: trpc.tables.columns.update.mutationOptions(),
    reorderColumns: trpc.tables.columns.reorder.mutationOptions(),
    removeColumn: trpc.tables.columns.remove.mutationOptions(),
    importPreview: trpc.tables.csv.preview.mutationOptions(),
    importCsv: trpc.tables.csv.import.mutationOptions(),
    createRow: trpc.tables.rows.create.mutationOptions(),
    updateRow: trpc.tables.rows.update.mutationOptions(),
  };
}

/** Deletes rows in one batch (all or nothing; at most a page, so within the 500 operations of a batch). */
export function useDeleteRows() {
  const trpc = useTRPC();
  return useMutation(trpc.tables.rows.batch.mutationOptions());
}

