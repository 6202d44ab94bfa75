/**
 * CSV import into a table: a preview (headers, first lines, suggested header → column mapping), then
 * the import itself, which checks every line first. Lines that do not fit are reported with their line
 * number and reasons; unless the caller asks to import only the valid lines, nothing is written. What
 * is written is written in one transaction, so an import is never half applied.
 */
import { parse } from 'csv-parse/sync';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { keyValueOf, parseTextCell, validateCells, type Cells } from './cells';
import { keyFromLabel } from './naming';
import { applyImportPlan, planImport } from './csv-import-writer';
import { storedColumnsOf, type Column } from './schemas';
import { findTableOrThrow, tableLimits } from './service';

export interface ImportProblem {
  column: string | null;
  reason: string;
  message: string;
}

export interface RejectedLine {
  line: number;
  problems: ImportProblem[];
}

const previewLines = 20;
const listedRejections = 100;

interface CsvRecord {
  line: number;
  fields: string[];
}

function readCsv(csv: string): { headers: string[]; records: CsvRecord[] } {
  let parsed: { record: string[]; info: { lines: number } }[];
  try {
    parsed = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as never;
  } catch (error) {
    throw appError('request.bad_request', {
      message: 'The file is not readable as CSV.',
      details: { reason: 'csv_unreadable', detail: error instanceof Error ? error.message : String(error) },
    });
  }
  if (parsed.length === 0) throw appError('request.bad_request', { message: 'The file is empty.', details: { reason: 'csv_empty' } });
  const [header, ...rest] = parsed;
  return {
    headers: header.record.map((name) => name.trim()),
    records: rest.map((entry) => ({ line: entry.info.lines, fields: entry.record })),
  };
}

/** A header maps to the column whose key or label it names (case and punctuation aside). */
export function suggestMapping(headers: string[], columns: Column[]): Record<string, string | null> {
  const used = new Set<string>();
  return Object.fromEntries(
    headers.map((header) => {
      const wanted = keyFromLabel(header);
      const match = columns.find((column) => !used.has(column.key) && (column.key === wanted || keyFromLabel(column.label) === wanted));
      if (match) used.add(match.key);
      return [header, match?.key ?? null];
    }),
  );
}

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

function checkMapping(headers: string[], mapping: Record<string, string | null>, columns: Column[]): Map<number, Column> {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const targets = new Map<number, Column>();
  const seen = new Set<string>();
  for (const [header, key] of Object.entries(mapping)) {
    if (key === null) continue;
    const index = headers.indexOf(header);
    const column = byKey.get(key);
    if (index < 0 || !column || seen.has(key)) {
      throw appError('request.bad_request', {
        message: 'The mapping names an unknown header or column, or one column twice.',
        details: { reason: 'invalid_mapping', header, column: key },
      });
    }
    seen.add(key);
    targets.set(index, column);
  }
  return targets;
}

export interface PreparedLine {
  line: number;
  cells: Cells;
  key: string | null;
}

/** Every line checked against the columns; keys checked within the file for an insert. */
function prepareLines(records: CsvRecord[], targets: Map<number, Column>, columns: Column[], mode: ImportRequest['mode'], keyUnique: boolean) {
  const { maxCellChars } = tableLimits();
  const keyColumn = columns.find((column) => column.isKey) ?? null;
  const accepted: PreparedLine[] = [];
  const rejected: RejectedLine[] = [];
  const keysInFile = new Set<string>();
  for (const record of records) {
    const input: Record<string, unknown> = {};
    for (const [index, column] of targets) input[column.key] = parseTextCell(column, record.fields[index] ?? '');
    const result = validateCells(columns, input, { partial: false, maxCellChars });
    if (!result.cells) {
      rejected.push({ line: record.line, problems: result.problems });
      continue;
    }
    const key = keyValueOf(columns, result.cells);
    if (mode === 'upsert' && key === null) {
      rejected.push({ line: record.line, problems: [{ column: keyColumn!.key, reason: 'required', message: 'The key column is needed to upsert.' }] });
      continue;
    }
    if (mode === 'insert' && keyUnique && key !== null) {
      if (keysInFile.has(key)) {
        rejected.push({ line: record.line, problems: [{ column: keyColumn!.key, reason: 'duplicate_key', message: 'An earlier line has the same key.' }] });
        continue;
      }
      keysInFile.add(key);
    }
    accepted.push({ line: record.line, cells: result.cells, key });
  }
  return { accepted, rejected };
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
