/**
 * CSV files of a table, the use cases: an import preview (headers, first lines, suggested header →
 * column mapping), the import itself, which checks every line first (lines that do not fit are
 * reported with their line number and reasons; unless the caller asks to import only the valid
 * lines, nothing is written; what is written is written in one transaction, so an import is never
 * half applied), and the export of a view of the rows.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, recordAudit } from '../../../core/audit';
import { db } from '../../../core/db';
import { appError, type AppError } from '../../../core/errors/app-error';
import { tableLimits } from '../limits';
import { findTableOrThrow, lockTableForUpdate } from '../repo';
import { exportStatement } from '../rows/query';
import { parseTypedSlots } from '../rows/typed-slots';
import { checkView } from '../rows/view';
import { storedColumnsOf } from '../schemas';
import { exportChunks } from './export';
import { ExportCursor } from './export-cursor';
import { checkHeaders, checkMapping, prepareLines, suggestMapping } from './import-lines';
import { claimImport, withImportSlot } from './import-lock';
import { applyImportPlan, planImport } from './import-writer';
import { readCsv, TooManyLinesError, type CsvFile, type CsvLimits } from './read-csv';
import type { ExportQuery } from './schemas';

const previewLines = 20;
const listedRejections = 100;

/** Ceilings of a file: lines as given, fields and characters per line from the table ceilings. */
function csvLimits(maxLines: number, keep: number): CsvLimits {
  const { maxColumns, maxCellChars } = tableLimits();
  // A file may carry columns the mapping skips: room for many more than the table has, bounded.
  return { maxLines, keep, maxFields: Math.max(1000, maxColumns), maxLineChars: Math.max(1024 * 1024, maxColumns * maxCellChars) };
}

function tooManyLines(maxRows: number, room: number): AppError {
  return appError('tables.limit_reached', {
    message: `The file has more lines than the table has room for (${room}).`,
    details: { limit: 'maxRows', value: maxRows, room },
  });
}

/** The file read under its ceilings; more lines than `room` is 409 `tables.limit_reached`. */
async function readFile(csv: string, room: number, keep: number): Promise<CsvFile> {
  try {
    const file = await readCsv(csv, csvLimits(room, keep));
    checkHeaders(file.headers);
    return file;
  } catch (error) {
    if (error instanceof TooManyLinesError) throw tooManyLines(tableLimits().maxRows, room);
    throw error;
  }
}

/** Headers, the first lines and a suggested mapping. A file longer than the row ceiling is refused as the import would be. */
export async function previewImport(ref: string, csv: string) {
  const table = await findTableOrThrow(ref);
  const { headers, records, lineCount } = await readFile(csv, tableLimits().maxRows, previewLines);
  return {
    headers,
    sample: records.map((record) => record.fields),
    lineCount,
    mapping: suggestMapping(headers, storedColumnsOf(table.columns)),
  };
}

export interface ImportRequest {
  id: string;
  csv: string;
  mapping: Record<string, string | null>;
  mode: 'insert' | 'upsert';
  skipInvalid: boolean;
}

/**
 * Reads the file (one import of a table at a time, see import-lock.ts), then checks and writes it in
 * one transaction. An insert may bring at most the table's remaining room in lines; an upsert, whose
 * lines may update existing rows, at most the row ceiling.
 */
export async function importCsv(actor: AuthenticatedActor, request: ImportRequest, ip: string | null) {
  const found = await findTableOrThrow(request.id);
  return withImportSlot(found.id, async () => {
    const { maxRows } = tableLimits();
    const room = request.mode === 'insert' ? Math.max(0, maxRows - found.rowCount) : maxRows;
    const { headers, records } = await readFile(request.csv, room, Number.POSITIVE_INFINITY);
    return db().$transaction(
      async (tx) => {
        await claimImport(tx, found.id);
        // Lock the table first, then read its structure: column changes and row writes wait, and
        // the columns and keys checked below stay true until the write.
        const table = await lockTableForUpdate(tx, found.id);
        const columns = storedColumnsOf(table.columns);
        if (request.mode === 'upsert' && !columns.some((column) => column.isKey)) throw appError('tables.key_column_missing');
        const targets = checkMapping(headers, request.mapping, columns);
        const { accepted, rejected } = await prepareLines(records, targets, columns, request.mode, table.keyUnique);
        const plan = await planImport(tx, { table, columns, lines: accepted, mode: request.mode });
        const allRejected = [...rejected, ...plan.rejected].sort((a, b) => a.line - b.line);
        if (allRejected.length > 0 && !request.skipInvalid) {
          throw appError('tables.import_rejected', { details: { count: allRejected.length, rejected: allRejected.slice(0, listedRejections) } });
        }
        const { inserted, updated } = await applyImportPlan(tx, { table, columns, plan, memberId: actor.member.id });
        await recordAudit(
          auditByOf(actor),
          { action: 'table.rows_imported', targetKind: 'table', targetId: table.id, details: { mode: request.mode, inserted, updated, rejected: allRejected.length }, ip },
          tx,
        );
        return { inserted, updated, rejectedCount: allRejected.length, rejected: allRejected.slice(0, listedRejections) };
      },
      { timeout: 120_000, maxWait: 10_000 },
    );
  });
}

/**
 * CSV export of a table, or of a view of it (the rows query's `q`, `filter`, `match`, `sort` and
 * `dir`). Checks the view (400 for a bad filter or sort), takes one of the actor's export slots
 * (429/503 beyond the budget) and opens the cursor, all before any byte is sent; the chunks are read
 * by the download route.
 */
export async function openTableExport(actor: AuthenticatedActor, ref: string, query: ExportQuery) {
  const { raw, ...view } = query;
  const table = await findTableOrThrow(ref);
  const columns = storedColumnsOf(table.columns);
  const { q, ...checked } = checkView(columns, view);
  // Export is not a hot path: number casts on JSONB always check the type first (see ../rows/query.ts).
  const input = { tableId: table.id, ...checked, slots: parseTypedSlots(table.typedSlots), guarded: true };
  const cursor = await ExportCursor.open(actor.member.id, q, (tsquery) => exportStatement({ ...input, tsquery }));
  return { table, chunks: exportChunks(columns, cursor, { raw }) };
}
