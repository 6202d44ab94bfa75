/**
 * The CSV text of an export: a header line of column labels, then every row of the checked view, by
 * default in creation order. Rows are read through a database cursor in batches, so a table at the
 * row ceiling never sits in memory whole and a sorted view is sorted once.
 */
import { stringify } from 'csv-stringify/sync';
import { pool } from '../../../core/db';
import { cellOf, type Cells } from '../rows/cells';
import { exportStatement } from '../rows/query';
import { rowsTransactionBegin, searchQueryOf } from '../rows/read-transaction';
import type { Column } from '../schemas';

const batchSize = 1000;

function fieldOf(value: Cells[string] | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

export async function* exportChunks(columns: Column[], q: string | null, input: Omit<Parameters<typeof exportStatement>[0], 'tsquery'>): AsyncGenerator<string> {
  yield stringify([columns.map((column) => column.label)]);
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
      if (rows.length > 0) yield stringify(rows.map((row) => columns.map((column) => fieldOf(cellOf(row.cells, column.key)))));
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
