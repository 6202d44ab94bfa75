/**
 * Cell values: what each column type accepts, how values are stored, and the derived texts a row
 * keeps (key value, search text). Pure and table-driven tested.
 *
 * Stored JSON per type: text, email, select → string; number → finite number; boolean → boolean;
 * date → "YYYY-MM-DD"; datetime → ISO 8601 in UTC ("…Z"). An empty cell is null (absent from `cells`).
 */
import { ownValue, setOwn } from '../../../core/own-property';
import type { Column } from '../schemas';
import { readNumberText } from '../../../core/number-text';
import { quotedValue } from '../../../core/quoted-value';
import { cellProblem, type CellProblem } from './cell-problems';

export { quotedValue };
export { cellProblem, columnName, type CellProblem } from './cell-problems';

export type CellValue = string | number | boolean | null;
/** Column key → value. Keys are chosen by people: read a cell with cellOf, never `cells[key]`. */
export type Cells = Record<string, CellValue>;

/** The cell of a column, or undefined when the row has none (never a member of Object.prototype). */
export function cellOf(cells: Cells, key: string): CellValue | undefined {
  return ownValue(cells, key);
}

// Every pattern here runs on a string whose length was bounded first, and none can backtrack.
const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const datetimePattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** "YYYY-MM-DDTHH:MM:SS.nnnnnnnnn+HH:MM" is 35 characters. */
const maxDatetimeLength = 35;
const whiteSpace = /\s/;

/** The longest address SMTP carries (RFC 5321: a 256-octet path less its angle brackets). */
export const maxEmailLength = 254;

/**
 * One `@` with text before it, no white space, and a dot inside the domain (not at either end):
 * what the earlier pattern `^[^\s@]+@[^\s@]+\.[^\s@]+$` accepted, but checked in a few linear passes
 * over at most 254 characters (that pattern backtracked quadratically on `a@` followed by dots).
 */
export function isEmailAddress(text: string): boolean {
  if (text.length > maxEmailLength) return false;
  const at = text.indexOf('@');
  if (at < 1 || at !== text.lastIndexOf('@') || whiteSpace.test(text)) return false;
  const domain = text.slice(at + 1);
  return domain.length >= 3 && domain.slice(1, -1).includes('.');
}

function isDatetimeText(text: string): boolean {
  return text.length <= maxDatetimeLength && datetimePattern.test(text);
}

function isValidDate(text: string): boolean {
  const match = text.length === 10 ? datePattern.exec(text) : null;
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export type CellRefusal = { reason: CellProblem['reason']; readings?: [number, number] };

/** A number column's value: a finite number, or a text read as people write numbers and money (server/core/number-text.ts). */
function numberCell(value: unknown): { value: number } | CellRefusal {
  if (typeof value === 'number') return Number.isFinite(value) ? { value } : { reason: 'wrong_type' };
  if (typeof value !== 'string') return { reason: 'wrong_type' };
  const read = readNumberText(value);
  if (read.ok) return { value: read.value };
  return read.reason === 'ambiguous_number' ? { reason: 'ambiguous_number', readings: read.readings } : { reason: 'wrong_type' };
}

/** One value against one column: the stored form, or the reason it does not fit. */
export function normaliseCell(column: Column, value: unknown, maxCellChars: number): { value: CellValue } | CellRefusal {
  if (value === null || value === undefined || value === '') return { value: null };
  switch (column.type) {
    case 'number':
      return numberCell(value);
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { reason: 'wrong_type' };
    default:
      break;
  }
  if (typeof value !== 'string') return { reason: 'wrong_type' };
  if (value.length > maxCellChars) return { reason: 'too_long' };
  switch (column.type) {
    case 'email': {
      const email = value.trim();
      return isEmailAddress(email) ? { value: email } : { reason: 'invalid_email' };
    }
    case 'date':
      return isValidDate(value) ? { value } : { reason: 'invalid_date' };
    case 'datetime': {
      const time = isDatetimeText(value) ? Date.parse(value) : Number.NaN;
      return Number.isNaN(time) ? { reason: 'invalid_datetime' } : { value: new Date(time).toISOString() };
    }
    case 'select':
      return column.options.includes(value) ? { value } : { reason: 'not_an_option' };
    default:
      return { value };
  }
}

/**
 * Validates cells for a write. `partial` (an update) checks only the cells given; otherwise every
 * required column must have a value. Returns the normalised cells, where null means "empty / clear"
 * (store them through mergeCells, which drops nulls), or every problem found.
 */
export function validateCells(
  columns: Column[],
  input: Record<string, unknown>,
  options: { partial: boolean; maxCellChars: number },
): { cells: Cells; problems: [] } | { cells: null; problems: CellProblem[] } {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  const problems: CellProblem[] = [];
  const cells: Cells = {};
  for (const [key, value] of Object.entries(input)) {
    const column = byKey.get(key);
    if (!column) {
      problems.push(cellProblem(key, 'unknown_column', value));
      continue;
    }
    const result = normaliseCell(column, value, options.maxCellChars);
    if ('reason' in result) problems.push(cellProblem(column, result.reason, value, result.readings));
    else setOwn(cells, key, result.value);
  }
  for (const column of columns) {
    const given = Object.hasOwn(input, column.key);
    if (column.required && ((given && cellOf(cells, column.key) === null) || (!given && !options.partial))) {
      problems.push(cellProblem(column, 'required'));
    }
  }
  return problems.length ? { cells: null, problems } : { cells, problems: [] };
}

/** Cells after an update: given values replace, nulls clear. */
export function mergeCells(current: Cells, update: Cells): Cells {
  const merged: Cells = { ...current, ...update };
  for (const [key, value] of Object.entries(merged)) if (value === null) delete merged[key];
  return merged;
}

/** Canonical text of the key column's cell (emails compare case-insensitively), or null. */
export function keyValueOf(columns: Column[], cells: Cells): string | null {
  const keyColumn = columns.find((column) => column.isKey);
  const value = keyColumn ? cellOf(cells, keyColumn.key) : null;
  if (value === null || value === undefined) return null;
  return keyColumn!.type === 'email' ? String(value).toLowerCase() : String(value);
}

/** Text the `q` filter searches: every cell value, in column order. */
export function searchTextOf(columns: Column[], cells: Cells): string {
  return columns
    .map((column) => cellOf(cells, column.key))
    .filter((value) => value !== null && value !== undefined)
    .map(String)
    .join(' ');
}

const machineNumber = /^-?\d{1,300}(\.\d{1,300})?([eE][+-]?\d{1,3})?$/;

/** A CSV field (always text) as the value the column type expects; strings pass to normaliseCell. */
export function parseTextCell(column: Column, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  switch (column.type) {
    case 'number':
      // What programs write (this service's exports among them) is read as JavaScript reads it, so
      // "1.234" round-trips; anything else as people write numbers and money (normaliseCell).
      return machineNumber.test(trimmed) ? Number(trimmed) : trimmed;
    case 'boolean': {
      const lower = trimmed.toLowerCase();
      if (['true', 'yes', '1', 'oui', 'vrai'].includes(lower)) return true;
      if (['false', 'no', '0', 'non', 'faux'].includes(lower)) return false;
      return text;
    }
    default:
      return trimmed;
  }
}

/**
 * An existing stored value carried into a changed column (a type change, new options): the value
 * as it is when it still fits, else read as text the way a CSV field would be. Dates widen to
 * midnight UTC and date-times narrow to their UTC date.
 */
export function convertCell(column: Column, value: CellValue, maxCellChars: number): { value: CellValue } | CellRefusal {
  const direct = normaliseCell(column, value, maxCellChars);
  if (!('reason' in direct)) return direct;
  if (column.type === 'datetime' && typeof value === 'string' && value.length === 10 && datePattern.test(value)) return { value: `${value}T00:00:00.000Z` };
  if (column.type === 'date' && typeof value === 'string' && isDatetimeText(value)) {
    return normaliseCell(column, new Date(value).toISOString().slice(0, 10), maxCellChars);
  }
  if (value === null) return direct;
  const reparsed = normaliseCell(column, parseTextCell(column, String(value)), maxCellChars);
  return 'reason' in reparsed ? direct : reparsed;
}
