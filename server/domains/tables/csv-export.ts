/**
 * CSV export of a table, or of a view of it (the rows query's `q`, `filter`, `match`, `sort` and
 * `dir`): a header line of column labels, then every matching row, by default in creation order.
 * Rows are read through a database cursor in batches, so a table at the row ceiling never sits in
 * memory whole and a sorted view is sorted once.
 */
import { stringify } from 'csv-stringify/sync';
import { pool } from '../../core/db';
import type { Cells } from './cells';
import { checkView, exportStatement, type RowsView } from './rows-query';
import { rowsTransactionBegin, searchQueryOf } from './rows-service';
import { storedColumnsOf, type Column } from './schemas';
import { findTableOrThrow } from './service';
import { parseTypedSlots } from './typed-slots';

const batchSize = 1000;

function fieldOf(value: Cells[string] | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Checks the view (400 for a bad filter or sort, before any byte is sent) and opens the export. */
export async function openTableExport(ref: string, view: RowsView) {
  const table = await findTableOrThrow(ref);
  const columns = storedColumnsOf(table.columns);
  const { q, ...checked } = checkView(columns, view);
  // Export is not a hot path: number casts on JSONB always check the type first (see rows-query.ts).
  const statement = { tableId: table.id, ...checked, slots: parseTypedSlots(table.typedSlots), guarded: true };
  return { table, chunks: exportChunks(columns, q, statement) };
}

async function* exportChunks(columns: Column[], q: string | null, input: Omit<Parameters<typeof exportStatement>[0], 'tsquery'>): AsyncGenerator<string> {
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
      if (rows.length > 0) yield stringify(rows.map((row) => columns.map((column) => fieldOf(row.cells[column.key]))));
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
