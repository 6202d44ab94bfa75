/**
 * The CSV text of an export: a header line of column labels, then every row of the checked view, by
 * default in creation order. Rows are read through a database cursor in batches, so a table at the
 * row ceiling never sits in memory whole and a sorted view is sorted once.
 */
import { stringify } from 'csv-stringify/sync';
import { pool } from '../../../core/db';
import { cellOf, type CellValue, type Cells } from '../rows/cells';
import { exportStatement } from '../rows/query';
import { rowsTransactionBegin, searchQueryOf } from '../rows/read-transaction';
import type { Column } from '../schemas';
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

export async function* exportChunks(
  columns: Column[],
  q: string | null,
  input: Omit<Parameters<typeof exportStatement>[0], 'tsquery'>,
  options: ExportOptions,
): AsyncGenerator<string> {
  yield stringify([columns.map((column) => (options.raw ? column.label : neutraliseFormula(column.label)))]);
  const client = await pool().connect();
  let inTransaction = false;
  let broken = false;
  try {
    await client.query(rowsTransactionBegin('scan'));
    inTransaction = true;
    const statement = exportStatement({ ...input, tsquery: await searchQueryOf(client, q) });
    await client.query(`DECLARE table_export NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
    for (;;) {
      const { rows } = await client.query<{ cells: Cells }>(`FETCH ${batchSize} FROM table_export`);
      if (rows.length > 0) yield stringify(rows.map((row) => columns.map((column) => fieldOf(cellOf(row.cells, column.key), options.raw))));
      if (rows.length < batchSize) break;
    }
    await client.query('COMMIT');
    inTransaction = false;
  } finally {
    // Also reached when the download fails or is cancelled mid-way (the generator is returned early).
    if (inTransaction) await client.query('ROLLBACK').catch(() => (broken = true));
    // A connection whose transaction state is unknown is closed rather than reused.
    client.release(broken);
  }
}
