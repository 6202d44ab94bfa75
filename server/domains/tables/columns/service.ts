/**
 * Column management (administrators): add, change, reorder and remove columns. Changes that affect
 * stored cells carry every row into the new structure or refuse with the rows that do not fit
 * (see ../rows/row-rewrite.ts). The table row is locked FOR UPDATE so row writes wait for the change.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, recordAudit } from '../../../core/audit';
import { db, type Tx } from '../../../core/db';
import { appError } from '../../../core/errors/app-error';
import { tableLimits } from '../limits';
import { firstFree, keyFromLabel } from '../naming';
import { presentTable } from '../present';
import { lockTableForUpdate, updateTable } from '../repo';
import { cellOf, convertCell, type Cells } from '../rows/cells';
import { rewriteRows } from '../rows/row-rewrite';
import { assignSlots, parseTypedSlots, storedTypedSlots, type TypedSlots } from '../rows/typed-slots';
import { ensureTypedSlots } from '../rows/typed-slots-backfill';
import { storedColumnsOf, type Column, type ColumnInput } from '../schemas';
import { buildColumns } from './build';

/** Structural changes may rewrite up to the row ceiling in one transaction. */
const structuralTransaction = { timeout: 120_000, maxWait: 10_000 };

/** The table under FOR UPDATE, read after the lock, with its typed slots (given first if it has none). */
async function lockTable(tx: Tx, ref: string) {
  const table = await lockTableForUpdate(tx, ref);
  const columns = storedColumnsOf(table.columns);
  const slots = await ensureTypedSlots(tx, table, columns, parseTypedSlots(table.typedSlots));
  return { table, columns, slots };
}

function columnOrThrow(columns: Column[], key: string): Column {
  const column = columns.find((candidate) => candidate.key === key);
  if (!column) throw appError('tables.column_not_found', { details: { key } });
  return column;
}

/** Only one key column: marking another one moves the key. */
function withSingleKey(columns: Column[], keyColumn: string | null): Column[] {
  return keyColumn === null ? columns : columns.map((column) => ({ ...column, isKey: column.key === keyColumn }));
}

async function saveColumns(
  tx: Tx,
  actor: AuthenticatedActor,
  tableId: string,
  structure: { columns: Column[]; slots: TypedSlots },
  audit: { action: string; details: Record<string, unknown> },
  ip: string | null,
) {
  const updated = await updateTable(tx, tableId, { columns: structure.columns as never, typedSlots: storedTypedSlots(structure.slots) });
  await recordAudit(auditByOf(actor), { action: audit.action, targetKind: 'table', targetId: tableId, details: audit.details, ip }, tx);
  return { table: presentTable(updated) };
}

export async function addColumn(actor: AuthenticatedActor, input: { id: string; column: ColumnInput; position?: number }, ip: string | null) {
  return db().$transaction(async (tx) => {
    const { table, columns, slots } = await lockTable(tx, input.id);
    const limits = tableLimits();
    if (columns.length >= limits.maxColumns) throw appError('tables.limit_reached', { details: { limit: 'maxColumns', value: limits.maxColumns } });
    if (input.column.key && columns.some((column) => column.key === input.column.key)) {
      throw appError('tables.duplicate_column', { details: { key: input.column.key } });
    }
    const key = input.column.key ?? firstFree(keyFromLabel(input.column.label), new Set(columns.map((column) => column.key)), '_');
    const [added] = buildColumns([{ ...input.column, key }], limits);
    if (added.required && table.rowCount > 0) {
      throw appError('tables.cells_incompatible', { message: 'Existing rows have no value for a new required column.', details: { count: table.rowCount, rows: [] } });
    }
    const next = added.isKey ? columns.map((column) => ({ ...column, isKey: false })) : [...columns];
    next.splice(Math.min(input.position ?? next.length, next.length), 0, added);
    const structure = { columns: next, slots: assignSlots(next, slots) };
    if (added.isKey) await rewriteRows(tx, table, structure, (cells) => ({ cells }));
    return saveColumns(tx, actor, table.id, structure, { action: 'table.column_added', details: { key: added.key, type: added.type } }, ip);
  }, structuralTransaction);
}

export interface ColumnChange {
  id: string;
  key: string;
  label?: string;
  type?: Column['type'];
  isKey?: boolean;
  required?: boolean;
  options?: string[];
  description?: string | null;
  width?: number | null;
}

export async function updateColumn(actor: AuthenticatedActor, change: ColumnChange, ip: string | null) {
  return db().$transaction(async (tx) => {
    const { table, columns, slots } = await lockTable(tx, change.id);
    const before = columnOrThrow(columns, change.key);
    const after: Column = {
      ...before,
      ...(change.label !== undefined ? { label: change.label } : {}),
      ...(change.type !== undefined ? { type: change.type } : {}),
      ...(change.isKey !== undefined ? { isKey: change.isKey } : {}),
      ...(change.required !== undefined ? { required: change.required } : {}),
      ...(change.options !== undefined ? { options: change.options } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.width !== undefined ? { width: change.width } : {}),
    };
    if (after.type !== 'select') after.options = [];
    else if (after.options.length === 0) throw appError('request.bad_request', { message: 'A select column needs options.', details: { reason: 'select_without_options' } });
    if (new Set(after.options).size !== after.options.length) throw appError('request.bad_request', { message: 'Options must be distinct.', details: { reason: 'duplicate_options' } });

    let next = columns.map((column) => (column.key === after.key ? after : column));
    if (change.isKey === true) next = withSingleKey(next, after.key);
    // A type change of another kind moves the column to another slot: the rewrite below fills it.
    const structure = { columns: next, slots: assignSlots(next, slots) };

    const valuesChange = after.type !== before.type || (after.type === 'select' && after.options.join('\u0000') !== before.options.join('\u0000'));
    const requiredNow = after.required && !before.required;
    const keyMoves = after.isKey !== before.isKey || change.isKey === true;
    if (valuesChange || requiredNow || keyMoves) {
      const { maxCellChars } = tableLimits();
      await rewriteRows(tx, table, structure, (cells) => {
        const value = cellOf(cells, after.key) ?? null;
        if (value === null) {
          return after.required ? { problem: { column: after.key, value, reason: 'required' } } : { cells };
        }
        if (!valuesChange) return { cells };
        const converted = convertCell(after, value, maxCellChars);
        if ('reason' in converted) return { problem: { column: after.key, value, reason: converted.reason } };
        return { cells: { ...cells, [after.key]: converted.value } as Cells };
      });
    }
    const changed = Object.keys(change).filter((field) => field !== 'id' && field !== 'key');
    return saveColumns(tx, actor, table.id, structure, { action: 'table.column_updated', details: { key: after.key, changed } }, ip);
  }, structuralTransaction);
}

export async function reorderColumns(actor: AuthenticatedActor, input: { id: string; keys: string[] }, ip: string | null) {
  return db().$transaction(async (tx) => {
    const { table, columns, slots } = await lockTable(tx, input.id);
    const current = columns.map((column) => column.key);
    const same = input.keys.length === current.length && new Set(input.keys).size === current.length && input.keys.every((key) => current.includes(key));
    if (!same) {
      throw appError('request.bad_request', { message: 'keys must list every column exactly once.', details: { reason: 'keys_mismatch', expected: current } });
    }
    const next = input.keys.map((key) => columnOrThrow(columns, key));
    return saveColumns(tx, actor, table.id, { columns: next, slots }, { action: 'table.columns_reordered', details: { keys: input.keys } }, ip);
  }, structuralTransaction);
}

export async function removeColumn(actor: AuthenticatedActor, input: { id: string; key: string }, ip: string | null) {
  return db().$transaction(async (tx) => {
    const { table, columns, slots } = await lockTable(tx, input.id);
    const removed = columnOrThrow(columns, input.key);
    const next = columns.filter((column) => column.key !== input.key);
    // The rewrite sets the freed slot to NULL in every row, so a later column can take it.
    const structure = { columns: next, slots: assignSlots(next, slots) };
    await rewriteRows(tx, table, structure, (cells) => {
      const { [input.key]: _dropped, ...rest } = cells;
      return { cells: rest };
    });
    return saveColumns(tx, actor, table.id, structure, { action: 'table.column_removed', details: { key: removed.key, wasKey: removed.isKey } }, ip);
  }, structuralTransaction);
}
