/**
 * Rows of shared tables, the use cases: a page of rows (the rows query), one row, and every row
 * write (insert, update, delete, upsert by the key column, batches). How a write transaction locks
 * and counts is in writes.ts; one operation in operations.ts; the statements in repo.ts.
 */
import type pg from 'pg';
import { db, pool } from '../../../core/db';
import { sqlStateOf, sqlStates } from '../../../core/db/sql-state';
import { AppError, appError, isAppError } from '../../../core/errors/app-error';
import { recordAudit } from '../../../core/audit';
import { findTableOrThrow } from '../repo';
import { storedColumnsOf } from '../schemas';
import { applyOperation, rowNotFound, type OperationOutcome } from './operations';
import { presentRow, type StoredRow } from './present';
import { countStatement, planOf, rowsStatement, type RowsStatementInput } from './query';
import { checkView } from './view';
import { rowsTransactionBegin, searchQueryOf } from './read-transaction';
import { findRow, lockTableForRows } from './repo';
import type { BatchOperation, ListRowsInput } from './schemas';
import { parseTypedSlots } from './typed-slots';
import { applyRowCount, auditDetails, inWriteTransaction, writeOne } from './writes';
import type { WriteContext } from './writer';

type PageRow = StoredRow & { total: string | null; total_unfiltered: number | null };

/** One page of rows. Runs on the shared pg pool (a measured hot path, see query.ts). */
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
      if (!([sqlStates.invalidTextRepresentation, sqlStates.numericValueOutOfRange] as string[]).includes(sqlStateOf(error) ?? '')) throw error;
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

export async function getRow(tableRef: string, rowId: string) {
  const table = await findTableOrThrow(tableRef);
  const row = await findRow(db(), table.id, rowId, false);
  if (!row) throw rowNotFound(rowId);
  return { row: presentRow(row) };
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
