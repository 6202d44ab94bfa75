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
import { appError } from '../../../core/errors/app-error';
import { findTableOrThrow } from '../repo';
import { parseTypedSlots } from '../rows/typed-slots';
import { checkView } from '../rows/view';
import { storedColumnsOf } from '../schemas';
import { exportChunks } from './export';
import { checkMapping, prepareLines, readCsv, suggestMapping } from './import-lines';
import { applyImportPlan, planImport } from './import-writer';
import type { ExportQuery } from './schemas';

const previewLines = 20;
const listedRejections = 100;

async function tableWithColumns(ref: string) {
  const table = await findTableOrThrow(ref);
  return { table, columns: storedColumnsOf(table.columns) };
}

export async function previewImport(ref: string, csv: string) {
  const { columns } = await tableWithColumns(ref);
  const { headers, records } = readCsv(csv);
  return {
    headers,
    sample: records.slice(0, previewLines).map((record) => record.fields),
    lineCount: records.length,
    mapping: suggestMapping(headers, columns),
  };
}

export interface ImportRequest {
  id: string;
  csv: string;
  mapping: Record<string, string | null>;
  mode: 'insert' | 'upsert';
  skipInvalid: boolean;
}

export async function importCsv(actor: AuthenticatedActor, request: ImportRequest, ip: string | null) {
  const { headers, records } = readCsv(request.csv);
  const tableId = (await findTableOrThrow(request.id)).id;
  return db().$transaction(
    async (tx) => {
      // Lock the table first, then read its structure: column changes and other imports wait, and
      // the columns and keys checked below stay true until the write.
      await tx.$queryRaw`SELECT id FROM data_tables WHERE id = ${tableId}::uuid FOR UPDATE`;
      const table = await tx.dataTable.findUniqueOrThrow({ where: { id: tableId } });
      const columns = storedColumnsOf(table.columns);
      if (request.mode === 'upsert' && !columns.some((column) => column.isKey)) throw appError('tables.key_column_missing');
      const targets = checkMapping(headers, request.mapping, columns);
      const { accepted, rejected } = prepareLines(records, targets, columns, request.mode, table.keyUnique);
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
}

/**
 * CSV export of a table, or of a view of it (the rows query's `q`, `filter`, `match`, `sort` and
 * `dir`). Checks the view (400 for a bad filter or sort, before any byte is sent) and opens the
 * export; the chunks are read by the download route.
 */
export async function openTableExport(ref: string, query: ExportQuery) {
  const { raw, ...view } = query;
  const table = await findTableOrThrow(ref);
  const columns = storedColumnsOf(table.columns);
  const { q, ...checked } = checkView(columns, view);
  // Export is not a hot path: number casts on JSONB always check the type first (see ../rows/query.ts).
  const statement = { tableId: table.id, ...checked, slots: parseTypedSlots(table.typedSlots), guarded: true };
  return { table, chunks: exportChunks(columns, q, statement, { raw }) };
}
