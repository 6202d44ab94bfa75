/**
 * What a row stores besides who wrote it, derived from its cells and its table's structure: the
 * cells as JSON, the key column's canonical text (and again as the unique key while `keyUnique` is
 * on), the text `q` searches, and the typed slot values. Every row writer (repo.ts,
 * ../csv/import-writer.ts, row-rewrite.ts) stores exactly these, so no path can forget one.
 */
import { keyValueOf, searchTextOf, type Cells } from './cells';
import type { Column } from '../schemas';
import { slotAssignmentsSql, slotValuesOf, type TypedSlots } from './typed-slots';

export interface RowStructure {
  columns: Column[];
  keyUnique: boolean;
  slots: TypedSlots | null;
}

export interface RowFields {
  /** JSON text of the cells. */
  cells: string;
  keyValue: string | null;
  uniqueKey: string | null;
  searchText: string;
  /** JSON text of the slot values (see typed-slots.ts). */
  slots: string;
}

export function rowFieldsOf(structure: RowStructure, cells: Cells): RowFields {
  const keyValue = keyValueOf(structure.columns, cells);
  return {
    cells: JSON.stringify(cells),
    keyValue,
    uniqueKey: structure.keyUnique ? keyValue : null,
    searchText: searchTextOf(structure.columns, cells),
    slots: JSON.stringify(slotValuesOf(structure.columns, structure.slots, cells)),
  };
}

// Bulk statements (imports, structural rewrites) pass many rows' fields as parallel arrays.

/** The fields of many rows as five parallel arrays, the parameters unnestRowFieldsSql reads. */
export function rowFieldArrays(rows: RowFields[]): [string[], (string | null)[], (string | null)[], string[], string[]] {
  return [rows.map((row) => row.cells), rows.map((row) => row.keyValue), rows.map((row) => row.uniqueKey), rows.map((row) => row.searchText), rows.map((row) => row.slots)];
}

/** `unnest($first::jsonb[]) AS cells, …, unnest($first+4::jsonb[]) AS slots`: rowFieldArrays as rows. */
export function unnestRowFieldsSql(first: number): string {
  const types = [['jsonb', 'cells'], ['text', 'key_value'], ['text', 'unique_key'], ['text', 'search_text'], ['jsonb', 'slots']];
  return types.map(([type, name], index) => `unnest($${first + index}::${type}[]) AS ${name}`).join(', ');
}

/** `cells = v.cells, …, t50 = …`: every stored field from a row of unnestRowFieldsSql named `source`. */
export function assignRowFieldsSql(source: string): string {
  return `cells = ${source}.cells, key_value = ${source}.key_value, unique_key = ${source}.unique_key, search_text = ${source}.search_text, ${slotAssignmentsSql(`${source}.slots`)}`;
}
