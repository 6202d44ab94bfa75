/**
 * CSV export of a table: a header line of column labels, then every row in creation order, produced
 * in batches so a table at the row ceiling never sits in memory whole.
 */
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { db } from '../../core/db';
import type { Cells } from './cells';
import { columnSchema, type Column } from './schemas';
import { findTableOrThrow } from './service';

const batchSize = 1000;

function fieldOf(value: Cells[string] | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

export async function openTableExport(ref: string) {
  const table = await findTableOrThrow(ref);
  const columns = z.array(columnSchema).parse(table.columns);
  return { table, chunks: exportChunks(table.id, columns) };
}

async function* exportChunks(tableId: string, columns: Column[]): AsyncGenerator<string> {
  yield stringify([columns.map((column) => column.label)]);
  let after: bigint | null = null;
  for (;;) {
    const rows: { cells: unknown; seq: bigint }[] = await db().tableRow.findMany({
      where: { tableId, ...(after !== null ? { seq: { gt: after } } : {}) },
      orderBy: { seq: 'asc' },
      take: batchSize,
      select: { cells: true, seq: true },
    });
    if (rows.length === 0) return;
    yield stringify(rows.map((row) => columns.map((column) => fieldOf((row.cells as Cells)[column.key]))));
    after = rows[rows.length - 1].seq;
    if (rows.length < batchSize) return;
  }
}
