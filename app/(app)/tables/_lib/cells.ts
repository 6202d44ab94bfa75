/**
 * Cell values between the API and the interface: how a value is shown in the grid, the text an editor
 * starts from, and the value an editor's text becomes. The API's forms: number → JSON number, boolean →
 * true/false, date → "YYYY-MM-DD", datetime → ISO 8601 in UTC, others → strings; an empty cell is absent.
 */
import type { Dictionary, Locale } from '@/app/i18n';
import { readNumberText } from '@/server/core/number-text';
import { ownValue } from '@/server/core/own-property';
import type { CellValue, Cells, Column, ColumnType } from './api';

/** A row's cell for a column key (keys are chosen by people: `constructor` must not find Object's). */
export function cellOf(cells: Cells, key: string): CellValue | undefined {
  return ownValue(cells, key);
}

const numberFormats = new Map<Locale, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function tag(locale: Locale): string {
  return locale === 'fr' ? 'fr-FR' : 'en-GB';
}

function numberFormat(locale: Locale): Intl.NumberFormat {
  let format = numberFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(tag(locale), { maximumFractionDigits: 10 });
    numberFormats.set(locale, format);
  }
  return format;
}

function dateFormat(locale: Locale, withTime: boolean): Intl.DateTimeFormat {
  const key = `${locale}:${withTime}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      tag(locale),
      withTime
        ? { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' }
        : // A date has no time zone: show it as written (UTC midnight in, UTC out).
          { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
    );
    dateFormats.set(key, format);
  }
  return format;
}

/** The text shown in a grid cell ('' when empty). */
export function displayCell(column: Column, value: CellValue | null | undefined, locale: Locale, t: Dictionary): string {
  if (value === null || value === undefined || value === '') return '';
  switch (column.type) {
    case 'number':
      return typeof value === 'number' ? numberFormat(locale).format(value) : String(value);
    case 'boolean':
      return value === true ? t.tables.values.yes : value === false ? t.tables.values.no : String(value);
    case 'date': {
      const time = Date.parse(`${value}T00:00:00Z`);
      return Number.isNaN(time) ? String(value) : dateFormat(locale, false).format(time);
    }
    case 'datetime': {
      const time = Date.parse(String(value));
      return Number.isNaN(time) ? String(value) : dateFormat(locale, true).format(time);
    }
    default:
      return String(value);
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO date-time as the value of a datetime-local input (local time, minutes). */
export function isoToLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local input's value as ISO 8601 in UTC, or null when it is not a date-time. */
export function localInputToIso(text: string): string | null {
  if (!text) return null;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The text an editor starts from. */
export function editorText(column: Column, value: CellValue | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (column.type === 'datetime') return typeof value === 'string' ? isoToLocalInput(value) : '';
  if (column.type === 'boolean') return value === true ? 'true' : value === false ? 'false' : '';
  return String(value);
}

/**
 * A number typed by a person, read as the server reads number texts (server/core/number-text.ts:
 * currency apart, decimal comma or point, thousands groups), so the editor never reads "1,234"
 * differently from the API. Null when it is not one, or is ambiguous.
 */
export function parseNumber(text: string): number | null {
  const read = readNumberText(text);
  return read.ok ? read.value : null;
}

export type Parsed = { ok: true; value: CellValue | null } | { ok: false; error: 'number' | 'ambiguous_number' | 'datetime' };

/**
 * An editor's text as the value to send (null clears the cell). Only what the browser cannot send
 * in the API's form is refused here; everything else (emails, options, required) is the server's call,
 * so its message is the one shown.
 */
export function parseEditorText(type: ColumnType, text: string): Parsed {
  if (type === 'boolean') return { ok: true, value: text === 'true' ? true : text === 'false' ? false : null };
  if (type === 'number') {
    if (!text.trim()) return { ok: true, value: null };
    const read = readNumberText(text);
    if (read.ok) return { ok: true, value: read.value };
    return { ok: false, error: read.reason === 'ambiguous_number' ? 'ambiguous_number' : 'number' };
  }
  if (type === 'datetime') {
    if (!text) return { ok: true, value: null };
    const iso = localInputToIso(text);
    return iso ? { ok: true, value: iso } : { ok: false, error: 'datetime' };
  }
  if (type === 'email') return { ok: true, value: text.trim() || null };
  return { ok: true, value: text === '' ? null : text };
}

/** Same value? (A save that changes nothing is not sent.) */
export function sameCell(a: CellValue | null | undefined, b: CellValue | null | undefined): boolean {
  return (a ?? null) === (b ?? null);
}

/** Default width of a column in pixels when the table does not set one. */
export function defaultWidth(type: ColumnType): number {
  switch (type) {
    case 'boolean':
      return 110;
    case 'number':
      return 130;
    case 'date':
      return 150;
    case 'datetime':
      return 200;
    case 'select':
      return 170;
    case 'email':
      return 240;
    default:
      return 220;
  }
}
