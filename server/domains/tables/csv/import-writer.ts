/**
 * The write half of a CSV import: which lines insert, which update an existing row (upsert by key),
 * which collide with an existing key; then the bulk statements. Runs inside the import's transaction
 * with the table row locked, so keys checked here cannot change before the write.
 */
import type { DataTable } from '../../../generated/prisma/client';
import type { Tx } from '../../../core/db';
import { nextTurn } from '../../../core/event-loop';
import { appError } from '../../../core/errors/app-error';
import { mergeCells, type Cells } from '../rows/cells';
import type { PreparedLine, RejectedLine } from './import-lines';
import { assignRowFieldsSql, rowFieldArrays, rowFieldsOf, unnestRowFieldsSql } from '../rows/row-fields';
import type { Column } from '../schemas';
import { tableLimits } from '../limits';
import { parseTypedSlots, slotColumnsSql, slotExpressionsSql } from '../rows/typed-slots';

export interface ImportPlan {
  inserts: Cells[];
  updates: { id: string; cells: Cells }[];
  rejected: RejectedLine[];
}

export async function planImport(
  tx: Tx,
  input: { table: DataTable; columns: Column[]; lines: PreparedLine[]; mode: 'insert' | 'upsert' },
): Promise<ImportPlan> {
  const keys = [...new Set(input.lines.flatMap((line) => (line.key === null ? [] : [line.key])))];
  const existingRows = keys.length
    ? await tx.$queryRaw<{ id: string; key_value: string; cells: Cells }[]>`
        SELECT DISTINCT ON (key_value) id, key_value, cells FROM table_rows
         WHERE table_id = ${input.table.id}::uuid AND key_value = ANY(${keys}::text[])
         ORDER BY key_value, created_at, id`
    : [];
  const existing = new Map(existingRows.map((row) => [row.key_value, row]));
  const keyColumn = input.columns.find((column) => column.isKey)?.key ?? null;

  const plan: ImportPlan = { inserts: [], updates: [], rejected: [] };
  if (input.mode === 'insert') {
    for (const line of input.lines) {
      if (input.table.keyUnique && line.key !== null && existing.has(line.key)) {
        plan.rejected.push({ line: line.line, problems: [{ column: keyColumn, reason: 'duplicate_key', message: 'A row with this key already exists.' }] });
      } else {
        plan.inserts.push(mergeCells({}, line.cells));
      }
    }
    return plan;
  }

  // Upsert: later lines with the same key update what earlier lines produced.
  const updates = new Map<string, Cells>();
  const pendingInserts = new Map<string, Cells>();
  for (const line of input.lines) {
    const key = line.key!;
    const row = existing.get(key);
    if (row) updates.set(row.id, mergeCells(updates.get(row.id) ?? row.cells, line.cells));
    else pendingInserts.set(key, mergeCells(pendingInserts.get(key) ?? {}, line.cells));
  }
  plan.updates = [...updates].map(([id, cells]) => ({ id, cells }));
  plan.inserts = [...pendingInserts.values()];
  return plan;
}

/**
 * Rows per bulk statement. One statement for 100,000 rows serialised its five parameter arrays in one
 * stretch of about 700 ms (pg's array literals, then garbage collection); batches of this size keep
 * each stretch short and hand the event loop back between them. They run in the import's one
 * transaction, in file order, so the rows' creation order (`seq`) is the file's.
 */
const rowsPerStatement = 2000;

function batchesOf<T>(items: readonly T[]): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += rowsPerStatement) batches.push(items.slice(start, start + rowsPerStatement));
  return batches;
}

export async function applyImportPlan(tx: Tx, input: { table: DataTable; columns: Column[]; plan: ImportPlan; memberId: string }) {
  const { table, columns, plan, memberId } = input;
  const { maxRows } = tableLimits();
  if (table.rowCount + plan.inserts.length > maxRows) {
    throw appError('tables.limit_reached', { details: { limit: 'maxRows', value: maxRows } });
  }
  const structure = { columns, keyUnique: table.keyUnique, slots: parseTypedSlots(table.typedSlots) };
  const derived = (cells: Cells) => rowFieldsOf(structure, cells);
  for (const batch of batchesOf(plan.inserts)) {
    await tx.$executeRawUnsafe(
      `INSERT INTO table_rows (id, table_id, cells, key_value, unique_key, search_text, created_by_member, updated_by_member, ${slotColumnsSql})
       SELECT gen_random_uuid(), $1::uuid, v.cells, v.key_value, v.unique_key, v.search_text, $2::uuid, $2::uuid, ${slotExpressionsSql('v.slots')}
         FROM (SELECT ${unnestRowFieldsSql(3)}, generate_subscripts($3::jsonb[], 1) AS position) AS v
        ORDER BY v.position`,
      table.id,
      memberId,
      ...rowFieldArrays(batch.map(derived)),
    );
    await nextTurn();
  }
  if (plan.inserts.length) await tx.dataTable.update({ where: { id: table.id }, data: { rowCount: { increment: plan.inserts.length } } });
  for (const batch of batchesOf(plan.updates)) {
    await tx.$executeRawUnsafe(
      `UPDATE table_rows AS r
          SET ${assignRowFieldsSql('v')}, updated_at = now(), updated_by_member = $1::uuid, updated_by_execution = NULL
         FROM (SELECT unnest($2::uuid[]) AS id, ${unnestRowFieldsSql(3)}) AS v
        WHERE r.id = v.id`,
      memberId,
      batch.map((update) => update.id),
      ...rowFieldArrays(batch.map((update) => derived(update.cells))),
    );
    await nextTurn();
  }
  return { inserted: plan.inserts.length, updated: plan.updates.length };
}
