/**
 * The checking half of a CSV import (no database): the headers, a suggested header → column mapping,
 * the caller's mapping checked, and every line checked against the columns (with its line number and
 * reasons when it does not fit).
 */
import { appError } from '../../../core/errors/app-error';
import { nextTurn } from '../../../core/event-loop';
import { setOwn } from '../../../core/own-property';
import { keyValueOf, parseTextCell, validateCells, type Cells } from '../rows/cells';
import { keyFromLabel } from '../naming';
import type { Column } from '../schemas';
import { tableLimits } from '../limits';
import type { CsvRecord } from './read-csv';

export interface ImportProblem {
  column: string | null;
  reason: string;
  message: string;
}

export interface RejectedLine {
  line: number;
  problems: ImportProblem[];
}


/** A mapping is a JSON object keyed by header: `__proto__` cannot be one of its keys, so no header may be named so. */
export function checkHeaders(headers: string[]): void {
  if (headers.includes('__proto__')) {
    throw appError('request.bad_request', { message: 'A header cannot be named __proto__: rename it.', details: { reason: 'csv_reserved_header', header: '__proto__' } });
  }
}

/** A header maps to the column whose key or label it names (case and punctuation aside). */
export function suggestMapping(headers: string[], columns: Column[]): Record<string, string | null> {
  const used = new Set<string>();
  const labelKeys = new Map(columns.map((column) => [column.key, keyFromLabel(column.label)]));
  return Object.fromEntries(
    headers.map((header) => {
      const wanted = keyFromLabel(header);
      const match = columns.find((column) => !used.has(column.key) && (column.key === wanted || labelKeys.get(column.key) === wanted));
      if (match) used.add(match.key);
      return [header, match?.key ?? null];
    }),
  );
}

export function checkMapping(headers: string[], mapping: Record<string, string | null>, columns: Column[]): Map<number, Column> {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  // The first header of a name, as indexOf would find it, without scanning the headers per entry.
  const indexOfHeader = new Map<string, number>();
  headers.forEach((header, index) => indexOfHeader.set(header, indexOfHeader.get(header) ?? index));
  const targets = new Map<number, Column>();
  const seen = new Set<string>();
  for (const [header, key] of Object.entries(mapping)) {
    if (key === null) continue;
    const index = indexOfHeader.get(header) ?? -1;
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

/** Lines checked between two turns of the event loop. */
const linesPerTurn = 1000;

/** Every line checked against the columns; keys checked within the file for an insert. */
export async function prepareLines(records: CsvRecord[], targets: Map<number, Column>, columns: Column[], mode: 'insert' | 'upsert', keyUnique: boolean) {
  const { maxCellChars } = tableLimits();
  const keyColumn = columns.find((column) => column.isKey) ?? null;
  const accepted: PreparedLine[] = [];
  const rejected: RejectedLine[] = [];
  const keysInFile = new Set<string>();
  for (const [position, record] of records.entries()) {
    if (position > 0 && position % linesPerTurn === 0) await nextTurn();
    const input: Record<string, unknown> = {};
    for (const [index, column] of targets) setOwn(input, column.key, parseTextCell(column, record.fields[index] ?? ''));
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

