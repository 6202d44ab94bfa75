/**
 * Rows of shared tables: the rows query and every row write (insert, update, delete, upsert by the
 * key column, batches), for members (routes) and workflow executions (engine-api.ts).
 *
 * Every write transaction:
 * 1. reads the table's structure under `FOR KEY SHARE` on its `data_tables` row: structure changes
 *    (column-service.ts, `FOR UPDATE`) wait for row writes and row writes wait for them, so cells are
 *    always validated against the structure they are stored under; row writers do not block each other;
 * 2. writes the rows (the unique index (table_id, unique_key) refuses duplicate keys while
 *    `keyUnique` is on; concurrent upserts meet there through `ON CONFLICT`, or on a transaction
 *    advisory lock on (table, key) without `keyUnique`);
 * 3. last, moves `row_count` by the net change, refusing to pass `maxRows` (the row lock it takes is
 *    always the last lock of the transaction, so writers cannot deadlock on it);
 * 4. records the audit entry (and the engine's effect record) in the same transaction.
 */
import type pg from 'pg';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit, type AuditBy } from '../../core/audit';
import { db, pool, type Tx } from '../../core/db';
import { AppError, appError, isAppError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { keyValueOf, mergeCells, validateCells, type CellProblem, type Cells } from './cells';
import { checkView, countStatement, planOf, prefixQuerySql, rowsStatement, type RowsStatementInput } from './rows-query';
import type { BatchOperation, ListRowsInput, Row } from './rows-schemas';
import { rowFieldsOf } from './row-fields';
import { storedColumnsOf, type Column } from './schemas';
import { findTableOrThrow, tableLimits } from './service';
import { parseTypedSlots, slotAssignmentsSql, slotColumnsSql, slotExpressionsSql, type TypedSlots } from './typed-slots';

// ---------------------------------------------------------------------------------------------
// Writers and presentation

/** Who writes: a member (routes, interface) or a workflow execution acting for its member. */
export type RowWriter = { kind: 'member'; memberId: string } | { kind: 'execution'; executionId: string; memberId: string };

export interface WriteContext {
  writer: RowWriter;
  auditBy: AuditBy;
  ip: string | null;
}

export function memberWriteContext(actor: AuthenticatedActor, ip: string | null): WriteContext {
  return { writer: { kind: 'member', memberId: actor.member.id }, auditBy: auditByOf(actor), ip };
}

/** A row as selected by `rowColumnsSql` / `returningSql`. */
export interface StoredRow {
  id: string;
  cells: Cells;
  created_at: Date;
  updated_at: Date;
  created_by_member: string | null;
  created_by_execution: string | null;
  updated_by_member: string | null;
  updated_by_execution: string | null;
}

function writerOf(memberId: string | null, executionId: string | null): Row['createdBy'] {
  if (executionId) return { kind: 'execution', id: executionId };
  if (memberId) return { kind: 'member', id: memberId };
  return null;
}

export function presentRow(row: StoredRow): Row {
  return {
    id: row.id,
    cells: row.cells as Row['cells'],
    createdAt: iso(new Date(row.created_at)),
    updatedAt: iso(new Date(row.updated_at)),
    createdBy: writerOf(row.created_by_member, row.created_by_execution),
    updatedBy: writerOf(row.updated_by_member, row.updated_by_execution),
  };
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function rowNotFound(rowId: string): AppError {
  return appError('tables.row_not_found', { details: { rowId } });
}

function invalidCells(problems: (CellProblem | { column: string; reason: string; message: string })[]): AppError {
  return appError('tables.invalid_cells', { details: { problems } });
}

/** SQLSTATE of a database error, whether it came through Prisma's driver adapter or straight from pg. */
export function sqlStateOf(error: unknown): string | null {
  const candidate = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } };
  const cause = candidate?.meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code ?? candidate?.code;
  if (code === 'P2002') return '23505';
  if (code === 'P2034') return '40P01';
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * The rows query's transaction. work_mem: the sort and the count of 100,000 narrow tuples stay in
 * memory (4 MB spills to disk). jit off: compiling costs 50-150 ms, more than it saves on these
 * short expressions. For a scan plan, parallel workers are made cheap to the planner: it cannot
 * estimate conditions on cells (a slot's statistics mix every table's columns, JSONB has none; it
 * guesses a few rows where 95,000 match) and then keeps a large table's scan and sort on one core,
 * 20-35 % slower on this 2-core machine.
 */
export function rowsTransactionBegin(plan: 'index' | 'scan'): string {
  const parallel = plan === 'scan' ? '; SET LOCAL parallel_setup_cost = 10; SET LOCAL parallel_tuple_cost = 0.001' : '';
  return `BEGIN READ ONLY; SET LOCAL work_mem = '32MB'; SET LOCAL jit = off${parallel}`;
}

/** `q` as the tsquery the statements take (null: no full-text filter), in the caller's transaction. */
export async function searchQueryOf(client: pg.PoolClient, q: string | null): Promise<string | null> {
  if (q === null) return null;
  return (await client.query<{ query: string | null }>(prefixQuerySql, [q])).rows[0]?.query ?? null;
}

type PageRow = StoredRow & { total: string | null; total_unfiltered: number | null };

/** One page of rows. Runs on the shared pg pool (a measured hot path, see rows-query.ts). */
export async function listRows(input: ListRowsInput) {
  const table = await findTableOrThrow(input.id);
  const { conditions, sort, q } = checkView(storedColumnsOf(table.columns), input);
  const begin = rowsTransactionBegin(planOf(conditions, q !== null, sort));
  const client = await pool().connect();
  let broken = false;
  try {
    await client.query(begin);
    const tsquery = await searchQueryOf(client, q);
    const statementInput: RowsStatementInput = {
      tableId: table.id,
      conditions,
      match: input.match,
      tsquery,
      sort,
      offset: input.offset,
      limit: input.limit,
      slots: parseTypedSlots(table.typedSlots),
    };
    let statement = rowsStatement(statementInput);
    let result: pg.QueryResult<PageRow>;
    try {
      result = await client.query<PageRow>(statement);
    } catch (error) {
      // A number cell holding something else (never written by this service): cast with type checks.
      if (!['22P02', '22003'].includes(sqlStateOf(error) ?? '')) throw error;
      await client.query('ROLLBACK');
      await client.query(begin);
      statementInput.guarded = true;
      statement = rowsStatement(statementInput);
      result = await client.query<PageRow>(statement);
    }
    const rows = result.rows;
    const totalUnfiltered = rows.length ? Number(rows[0].total_unfiltered ?? table.rowCount) : table.rowCount;
    let total = statement.plan === 'index' ? totalUnfiltered : rows.length ? Number(rows[0].total) : 0;
    if (rows.length === 0 && input.offset > 0 && statement.plan === 'scan') {
      total = (await client.query<{ total: number }>(countStatement(statementInput))).rows[0].total;
    }
    await client.query('COMMIT');
    if (rows.length === 0 && input.offset > 0) {
      throw appError('tables.page_out_of_range', {
        message: `Offset ${input.offset} is at or beyond the ${total} matching rows.`,
        details: { offset: input.offset, limit: input.limit, total, lastPageOffset: total === 0 ? 0 : Math.floor((total - 1) / input.limit) * input.limit },
      });
    }
    return { rows: rows.map(presentRow), total, totalUnfiltered, offset: input.offset, limit: input.limit };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    // A connection whose transaction state is unknown is closed rather than reused.
    client.release(broken);
  }
}

const returningSql =
  'id, cells, created_at, updated_at, created_by_member, created_by_execution, updated_by_member, updated_by_execution';

type Reader = Pick<Tx, '$queryRawUnsafe'>;

async function findRow(tx: Reader, tableId: string, rowId: string, lock: boolean): Promise<StoredRow | null> {
  if (!uuidShape.test(rowId)) return null;
  const rows = lock
    ? await tx.$queryRawUnsafe<StoredRow[]>(`SELECT ${returningSql} FROM table_rows WHERE id = $1::uuid AND table_id = $2::uuid FOR UPDATE`, rowId, tableId)
    : await tx.$queryRawUnsafe<StoredRow[]>(`SELECT ${returningSql} FROM table_rows WHERE id = $1::uuid AND table_id = $2::uuid`, rowId, tableId);
  return rows[0] ?? null;
}

export async function getRow(tableRef: string, rowId: string) {
  const table = await findTableOrThrow(tableRef);
  const row = await findRow(db(), table.id, rowId, false);
  if (!row) throw rowNotFound(rowId);
  return { row: presentRow(row) };
}

/** The oldest row whose key cell is `keyValue` (canonical form, see keyValueOf). */
export async function findRowByKey(tx: Reader, tableId: string, keyValue: string, lock: boolean): Promise<StoredRow | null> {
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `SELECT ${returningSql} FROM table_rows WHERE table_id = $1::uuid AND key_value = $2 ORDER BY seq LIMIT 1${lock ? ' FOR UPDATE' : ''}`,
    tableId,
    keyValue,
  );
  return rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// Writing: one operation inside a write transaction

export interface LockedTable {
  id: string;
  slug: string;
  columns: Column[];
  keyUnique: boolean;
  rowCount: number;
  slots: TypedSlots | null;
}

/** Resolves the table and takes the row writers' share lock on it (see the module comment). */
export async function lockTableForRows(tx: Tx, ref: string): Promise<LockedTable> {
  const table = await findTableOrThrow(ref, tx);
  const [locked] = await tx.$queryRaw<{ columns: unknown; key_unique: boolean; row_count: number; typed_slots: unknown }[]>`
    SELECT columns, key_unique, row_count, typed_slots FROM data_tables WHERE id = ${table.id}::uuid FOR KEY SHARE`;
  if (!locked) throw appError('tables.not_found');
  return {
    id: table.id,
    slug: table.slug,
    columns: storedColumnsOf(locked.columns),
    keyUnique: locked.key_unique,
    rowCount: locked.row_count,
    slots: parseTypedSlots(locked.typed_slots),
  };
}

export type RowOperation =
  | { op: 'insert'; cells: Record<string, unknown> }
  | { op: 'update'; id: string; cells: Record<string, unknown> }
  | { op: 'upsert'; cells: Record<string, unknown> }
  | { op: 'delete'; id: string };

export interface OperationOutcome {
  op: RowOperation['op'];
  row: StoredRow;
  /** Upserts: whether the row was created. */
  created?: boolean;
  /** Net change of the table's row count. */
  delta: -1 | 0 | 1;
}

function writerColumns(writer: RowWriter): { memberId: string; executionId: string | null } {
  return { memberId: writer.memberId, executionId: writer.kind === 'execution' ? writer.executionId : null };
}

function duplicateKey(table: LockedTable, keyValue: string | null): AppError {
  const keyColumn = table.columns.find((column) => column.isKey);
  return appError('tables.duplicate_key', { details: { column: keyColumn?.key ?? null, key: keyValue } });
}

/** Inserts; null when a row already holds the key while keyUnique is on. */
async function insertStored(tx: Tx, table: LockedTable, cells: Cells, writer: RowWriter): Promise<StoredRow | null> {
  const derived = rowFieldsOf(table, cells);
  const { memberId, executionId } = writerColumns(writer);
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `INSERT INTO table_rows (id, table_id, cells, key_value, unique_key, search_text,
                             created_by_member, created_by_execution, updated_by_member, updated_by_execution, ${slotColumnsSql})
     VALUES (gen_random_uuid(), $1::uuid, $2::jsonb, $3, $4, $5, $6::uuid, $7, $6::uuid, $7, ${slotExpressionsSql('$8::jsonb')})
     ON CONFLICT (table_id, unique_key) DO NOTHING
     RETURNING ${returningSql}`,
    table.id,
    derived.cells,
    derived.keyValue,
    derived.uniqueKey,
    derived.searchText,
    memberId,
    executionId,
    derived.slots,
  );
  return rows[0] ?? null;
}

async function updateStored(tx: Tx, table: LockedTable, rowId: string, cells: Cells, writer: RowWriter): Promise<StoredRow> {
  const derived = rowFieldsOf(table, cells);
  const { memberId, executionId } = writerColumns(writer);
  try {
    const rows = await tx.$queryRawUnsafe<StoredRow[]>(
      `UPDATE table_rows
          SET cells = $2::jsonb, key_value = $3, unique_key = $4, search_text = $5,
              updated_at = now(), updated_by_member = $6::uuid, updated_by_execution = $7, ${slotAssignmentsSql('$8::jsonb')}
        WHERE id = $1::uuid
       RETURNING ${returningSql}`,
      rowId,
      derived.cells,
      derived.keyValue,
      derived.uniqueKey,
      derived.searchText,
      memberId,
      executionId,
      derived.slots,
    );
    return rows[0];
  } catch (error) {
    if (sqlStateOf(error) === '23505') throw duplicateKey(table, derived.keyValue);
    throw error;
  }
}

function validated(table: LockedTable, input: Record<string, unknown>, partial: boolean): Cells {
  const result = validateCells(table.columns, input, { partial, maxCellChars: tableLimits().maxCellChars });
  if (result.problems.length) throw invalidCells(result.problems);
  return result.cells!;
}

async function insertOperation(tx: Tx, table: LockedTable, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const cells = mergeCells({}, validated(table, input, false));
  const row = await insertStored(tx, table, cells, writer);
  if (!row) throw duplicateKey(table, keyValueOf(table.columns, cells));
  return { op: 'insert', row, delta: 1 };
}

async function updateOperation(tx: Tx, table: LockedTable, rowId: string, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const current = await findRow(tx, table.id, rowId, true);
  if (!current) throw rowNotFound(rowId);
  const cells = mergeCells(current.cells, validated(table, input, true));
  return { op: 'update', row: await updateStored(tx, table, current.id, cells, writer), delta: 0 };
}

async function deleteOperation(tx: Tx, table: LockedTable, rowId: string): Promise<OperationOutcome> {
  if (!uuidShape.test(rowId)) throw rowNotFound(rowId);
  const rows = await tx.$queryRawUnsafe<StoredRow[]>(
    `DELETE FROM table_rows WHERE id = $1::uuid AND table_id = $2::uuid RETURNING ${returningSql}`,
    rowId,
    table.id,
  );
  if (!rows[0]) throw rowNotFound(rowId);
  return { op: 'delete', row: rows[0], delta: -1 };
}

/**
 * Insert, or update the row holding the same key. With keyUnique the unique index decides
 * (`INSERT … ON CONFLICT DO NOTHING`, then the conflicting row is locked and updated); without it a
 * transaction advisory lock on (table, key) serialises upserts of one key, and the oldest row with
 * that key is the one updated. Given cells replace, cells not given stay, null clears.
 */
async function upsertOperation(tx: Tx, table: LockedTable, input: Record<string, unknown>, writer: RowWriter): Promise<OperationOutcome> {
  const keyColumn = table.columns.find((column) => column.isKey);
  if (!keyColumn) throw appError('tables.key_column_missing');
  const given = validated(table, input, true);
  const keyValue = keyValueOf(table.columns, given);
  if (keyValue === null) {
    throw invalidCells([{ column: keyColumn.key, reason: 'required', message: 'An upsert needs a value in the key column.' }]);
  }
  const full = validateCells(table.columns, input, { partial: false, maxCellChars: tableLimits().maxCellChars });
  const update = async (existing: StoredRow): Promise<OperationOutcome> => ({
    op: 'upsert',
    row: await updateStored(tx, table, existing.id, mergeCells(existing.cells, given), writer),
    created: false,
    delta: 0,
  });
  const insert = async (): Promise<StoredRow | null> => {
    if (full.problems.length) throw invalidCells(full.problems);
    return insertStored(tx, table, mergeCells({}, given), writer);
  };

  if (table.keyUnique) {
    // The conflicting row can vanish between the two statements (a concurrent delete): try again.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const existing = (
        await tx.$queryRawUnsafe<StoredRow[]>(
          `SELECT ${returningSql} FROM table_rows WHERE table_id = $1::uuid AND unique_key = $2 FOR UPDATE`,
          table.id,
          keyValue,
        )
      )[0];
      if (existing) return update(existing);
      const inserted = await insert();
      if (inserted) return { op: 'upsert', row: inserted, created: true, delta: 1 };
    }
    throw duplicateKey(table, keyValue);
  }

  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${table.id}), hashtext(${keyValue}))`;
  const existing = await findRowByKey(tx, table.id, keyValue, true);
  if (existing) return update(existing);
  const inserted = await insert();
  if (!inserted) throw duplicateKey(table, keyValue);
  return { op: 'upsert', row: inserted, created: true, delta: 1 };
}

export function applyOperation(tx: Tx, table: LockedTable, operation: RowOperation, writer: RowWriter): Promise<OperationOutcome> {
  switch (operation.op) {
    case 'insert':
      return insertOperation(tx, table, operation.cells, writer);
    case 'update':
      return updateOperation(tx, table, operation.id, operation.cells, writer);
    case 'delete':
      return deleteOperation(tx, table, operation.id);
    case 'upsert':
      return upsertOperation(tx, table, operation.cells, writer);
  }
}

function limitReached(maxRows: number, index?: number): AppError {
  return appError('tables.limit_reached', { details: { limit: 'maxRows', value: maxRows, ...(index === undefined ? {} : { index }) } });
}

/**
 * Moves row_count by the deltas of the operations in order, refusing when it would pass maxRows
 * (the error names the first operation that would). The last lock of every write transaction.
 */
export async function applyRowCount(tx: Tx, tableId: string, deltas: number[], indexed: boolean): Promise<void> {
  const net = deltas.reduce((sum, delta) => sum + delta, 0);
  if (net === 0 && !deltas.some((delta) => delta > 0)) return;
  const { maxRows } = tableLimits();
  const [locked] = await tx.$queryRaw<{ row_count: number }[]>`SELECT row_count FROM data_tables WHERE id = ${tableId}::uuid FOR NO KEY UPDATE`;
  let count = locked.row_count;
  for (const [index, delta] of deltas.entries()) {
    count += delta;
    if (delta > 0 && count > maxRows) throw limitReached(maxRows, indexed ? index : undefined);
  }
  if (net !== 0) await tx.$executeRaw`UPDATE data_tables SET row_count = row_count + ${net} WHERE id = ${tableId}::uuid`;
}

// ---------------------------------------------------------------------------------------------
// Write transactions

const retriedStates = new Set(['40P01', '40001']);

/** A write transaction, tried again (up to 3 times) when the database aborts it for a deadlock. */
export async function inWriteTransaction<T>(work: (tx: Tx) => Promise<T>, options: { timeout?: number } = {}): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db().$transaction(work, { timeout: options.timeout ?? 15_000, maxWait: 10_000 });
    } catch (error) {
      if (attempt >= 3 || isAppError(error) || !retriedStates.has(sqlStateOf(error) ?? '')) throw error;
    }
  }
}

const auditActions = { insert: 'table.row_created', update: 'table.row_updated', delete: 'table.row_deleted' } as const;

function auditDetails(ctx: WriteContext, details: Record<string, unknown>): Record<string, unknown> {
  return ctx.writer.kind === 'execution' ? { ...details, executionId: ctx.writer.executionId } : details;
}

/** One row operation inside a write transaction that already holds the table (lockTableForRows), with its audit entry. */
export async function writeOneIn(tx: Tx, table: LockedTable, operation: RowOperation, ctx: WriteContext): Promise<OperationOutcome> {
  if (operation.op === 'insert' && table.rowCount >= tableLimits().maxRows) throw limitReached(tableLimits().maxRows);
  const outcome = await applyOperation(tx, table, operation, ctx.writer);
  await applyRowCount(tx, table.id, [outcome.delta], false);
  const action = operation.op === 'upsert' ? (outcome.created ? auditActions.insert : auditActions.update) : auditActions[operation.op];
  await recordAudit(
    ctx.auditBy,
    {
      action,
      targetKind: 'table',
      targetId: table.id,
      details: auditDetails(ctx, { tableId: table.id, rowId: outcome.row.id, ...(operation.op === 'upsert' ? { upsert: true } : {}) }),
      ip: ctx.ip,
    },
    tx,
  );
  return outcome;
}

/** One row operation in its own transaction. */
export function writeOne(tableRef: string, operation: RowOperation, ctx: WriteContext): Promise<OperationOutcome> {
  return inWriteTransaction(async (tx) => writeOneIn(tx, await lockTableForRows(tx, tableRef), operation, ctx));
}

export async function insertRow(tableRef: string, cells: Record<string, unknown>, ctx: WriteContext) {
  return { row: presentRow((await writeOne(tableRef, { op: 'insert', cells }, ctx)).row) };
}

export async function updateRow(tableRef: string, rowId: string, cells: Record<string, unknown>, ctx: WriteContext) {
  return { row: presentRow((await writeOne(tableRef, { op: 'update', id: rowId, cells }, ctx)).row) };
}

export async function deleteRow(tableRef: string, rowId: string, ctx: WriteContext) {
  return { row: presentRow((await writeOne(tableRef, { op: 'delete', id: rowId }, ctx)).row) };
}

export async function upsertRow(tableRef: string, cells: Record<string, unknown>, ctx: WriteContext) {
  const outcome = await writeOne(tableRef, { op: 'upsert', cells }, ctx);
  return { row: presentRow(outcome.row), created: outcome.created ?? false };
}

/**
 * Up to 500 operations, all or nothing: the first one that fails aborts the batch with its own
 * error code and `details.index`. One audit entry with the counts.
 */
export async function batchRows(tableRef: string, operations: BatchOperation[], ctx: WriteContext) {
  return inWriteTransaction(
    async (tx) => {
      const table = await lockTableForRows(tx, tableRef);
      const outcomes: OperationOutcome[] = [];
      for (const [index, operation] of operations.entries()) {
        try {
          outcomes.push(await applyOperation(tx, table, operation, ctx.writer));
        } catch (error) {
          if (!isAppError(error)) throw error;
          throw new AppError(error.code, { message: `Operation ${index}: ${error.message}`, details: { ...error.details, index } });
        }
      }
      await applyRowCount(
        tx,
        table.id,
        outcomes.map((outcome) => outcome.delta),
        true,
      );
      const count = (predicate: (outcome: OperationOutcome) => boolean) => outcomes.filter(predicate).length;
      await recordAudit(
        ctx.auditBy,
        {
          action: 'table.rows_batch',
          targetKind: 'table',
          targetId: table.id,
          details: auditDetails(ctx, {
            tableId: table.id,
            operations: outcomes.length,
            inserted: count((outcome) => outcome.delta === 1),
            updated: count((outcome) => outcome.op !== 'delete' && outcome.delta === 0),
            deleted: count((outcome) => outcome.op === 'delete'),
          }),
          ip: ctx.ip,
        },
        tx,
      );
      return {
        results: outcomes.map((outcome) => ({
          op: outcome.op,
          id: outcome.row.id,
          ...(outcome.op === 'delete' ? {} : { row: presentRow(outcome.row) }),
          ...(outcome.op === 'upsert' ? { created: outcome.created ?? false } : {}),
        })),
      };
    },
    { timeout: 120_000 },
  );
}
