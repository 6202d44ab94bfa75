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
import { addToRowCount } from '../repo';
import { insertRowsInOrder, oldestRowsByKeys, updateRowsByMember } from '../rows/repo-bulk';
import { rowFieldsOf } from '../rows/row-fields';
import type { Column } from '../schemas';
import { tableLimits } from '../limits';
import { parseTypedSlots } from '../rows/typed-slots';

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
    ? await oldestRowsByKeys(tx, input.table.id, keys)
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
    await insertRowsInOrder(tx, table.id, memberId, batch.map(derived));
    await nextTurn();
  }
  if (plan.inserts.length) await addToRowCount(tx, table.id, plan.inserts.length);
  for (const batch of batchesOf(plan.updates)) {
    await updateRowsByMember(
      tx,
      memberId,
      batch.map((update) => ({ id: update.id, ...derived(update.cells) })),
    );
    await nextTurn();
  }
  return { inserted: plan.inserts.length, updated: plan.updates.length };
}
