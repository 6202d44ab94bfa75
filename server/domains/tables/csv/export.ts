/**
 * The CSV text of an export: a header line of column labels, then every row of the checked view, by
 * default in creation order. Rows are read through a database cursor in batches (export-cursor.ts),
 * so a table at the row ceiling never sits in memory whole and a sorted view is sorted once.
 */
import { stringify } from 'csv-stringify/sync';
import { cellOf, type CellValue } from '../rows/cells';
import type { Column } from '../schemas';
import type { ExportCursor } from './export-cursor';
import { neutraliseFormula } from './formula';

const batchSize = 1000;

/**
 * A cell as CSV text. Unless `raw`, text that a spreadsheet would run as a formula is neutralised
 * (formula.ts). A number cell is left as it is, even negative: it is a JavaScript number, whose text
 * holds only digits, a sign, a point and an exponent, so a spreadsheet reads `-5` as the number -5
 * and can never find a formula in it; prefixing it would turn every negative amount into text.
 */
function fieldOf(value: CellValue | undefined, raw: boolean): string {
  if (value === null || value === undefined) return '';
  if (raw || typeof value === 'number') return String(value);
  return neutraliseFormula(String(value));
}

export interface ExportOptions {
  /** The stored texts as they are, without neutralising formulas (programs). */
  raw: boolean;
}

/** What the download route reads: text chunks, and `return()` to stop early (the cursor is closed either way). */
export interface ExportChunks extends AsyncIterableIterator<string> {
  return(value?: undefined): Promise<IteratorResult<string>>;
}

async function* chunksOf(columns: Column[], cursor: ExportCursor, options: ExportOptions): AsyncGenerator<string> {
  let complete = false;
  try {
    yield stringify([columns.map((column) => (options.raw ? column.label : neutraliseFormula(column.label)))]);
    for (;;) {
      const rows = await cursor.fetch(batchSize);
      if (rows.length > 0) yield stringify(rows.map((cells) => columns.map((column) => fieldOf(cellOf(cells, column.key), options.raw))));
      if (rows.length < batchSize) break;
    }
    complete = true;
  } finally {
    // Also reached when the download fails or is cancelled mid-way (the generator is returned early).
    await cursor.close(complete ? 'complete' : 'failed');
  }
}

/**
 * The export's chunks over an open cursor. `return()` closes the cursor even before the first chunk
 * was asked for (a generator that never started would skip its `finally`).
 */
export function exportChunks(columns: Column[], cursor: ExportCursor, options: ExportOptions): ExportChunks {
  const chunks = chunksOf(columns, cursor, options);
  const iterator: ExportChunks = {
    next: () => chunks.next(),
    async return() {
      try {
        return await chunks.return(undefined);
      } finally {
        await cursor.close('failed');
      }
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
