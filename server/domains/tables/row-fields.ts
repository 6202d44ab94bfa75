/**
 * What a row stores besides who wrote it, derived from its cells and its table's structure: the
 * cells as JSON, the key column's canonical text (and again as the unique key while `keyUnique` is
 * on), the text `q` searches, and the typed slot values. Every row writer (rows-service.ts,
 * csv-import-writer.ts, row-rewrite.ts) stores exactly these, so no path can forget one.
 */
import { keyValueOf, searchTextOf, type Cells } from './cells';
import type { Column } from './schemas';
import { slotValuesOf, type TypedSlots } from './typed-slots';

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
