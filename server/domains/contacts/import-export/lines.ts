/**
 * An import file → its lines: for each line (a CSV record, or one entry of a vCard card) the entry it
 * targets, the card fields the file carries for the chosen layer, and its problems, in the style of
 * the tables' rejected lines (`{column, reason, message, value}`). A field the file does not carry
 * (a CSV column absent, a vCard property absent) is left as the card has it; a CSV cell left empty
 * clears it.
 *
 * The layers' fields (names as the API's):
 * - shared: `displayName` (≤ 200; vCard FN, else ORG), `language` (LANG), `status` (X-STATUS, one of
 *   the six), `orgNotes` (NOTE);
 * - member (global or a mailbox's): `formality` (X-FORMALITY), `tone` (X-TONE), `language` (LANG),
 *   `personalNotes` (NOTE). A signature is never imported (its id is the member's own, meaningless in
 *   a file).
 *
 * vCard: `KIND` absent or `individual` gives one `contact` entry per EMAIL; `KIND:org` gives `domain`
 * entries, from X-DOMAIN (our export) or else the EMAILs' domains; other kinds (`group`, `location`)
 * are an error of the card. CSV: a header line with `value` and, optionally, `kind` (inferred when
 * empty: an `@` makes a `contact`) and the layer's fields; an unknown header (another layer's field,
 * `__proto__`, a typo) refuses the file with 400, naming it: a silently ignored column would be data
 * lost. Header names are compared case-blind and never used as object keys. A cell our export
 * neutralised (`'=…`, `'+…`, `'-…`, `'@…`) loses its `'` again, so an export imports back unchanged.
 */
import { appError } from '../../../core/errors/app-error';
import { readCsv, TooManyLinesError } from '../../tables';
import { domainOfAddress, normaliseValue, type ContactKind } from '../normalise';
import { contactStatuses, formalities, tones } from '../resolve';
import { contactBounds } from '../schemas';
import { readVcards, TooManyCardsError, VcardFileError, type VcardCard } from './vcard';

export type ImportLayer = 'shared' | 'member';
export type ImportFormat = 'vcard' | 'csv';

export const sharedFields = ['displayName', 'language', 'status', 'orgNotes'] as const;
export const memberFields = ['formality', 'tone', 'language', 'personalNotes'] as const;
export type ImportField = (typeof sharedFields)[number] | (typeof memberFields)[number];
export const fieldsOf = (layer: ImportLayer): readonly ImportField[] => (layer === 'shared' ? sharedFields : memberFields);

export interface LineProblem {
  /** The CSV header or vCard property, null for the line as a whole. */
  column: string | null;
  reason: string;
  message: string;
  /** The value refused, at most 40 characters (absent for a missing value). */
  value?: string;
}

export interface ImportLine {
  line: number;
  kind: ContactKind | null;
  value: string | null;
  /** The fields the file carries, checked and in their stored form (a null clears the field). */
  fields: Partial<Record<ImportField, string | null>>;
  problems: LineProblem[];
}

export interface ImportBounds {
  /** Lines (CSV records, or entries of a vCard file) per import. */
  maxEntries: number;
}

const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 39)}…` : text);

function fileError(reason: string, message: string, details: Record<string, unknown> = {}) {
  return appError('request.bad_request', { message, details: { reason, ...details } });
}

export function tooManyEntries(max: number) {
  return fileError('too_many_entries', `The file has more than ${max} entries: split it.`, { max });
}

const languageTag = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

/** One field's text (trimmed; empty is null) checked and in its stored form, or a problem. */
function checkField(field: ImportField, raw: string | null, column: string): { value: string | null } | { problem: LineProblem } {
  const text = raw === null ? null : field === 'orgNotes' || field === 'personalNotes' ? raw.replace(/\r\n/g, '\n') : raw.trim();
  if (text === null || text.trim() === '') return { value: null };
  const refuse = (reason: string, message: string) => ({ problem: { column, reason, message, value: clip(text) } });
  switch (field) {
    case 'displayName':
      return text.length > contactBounds.displayName ? refuse('too_long', `${column}: at most ${contactBounds.displayName} characters.`) : { value: text };
    case 'orgNotes':
    case 'personalNotes':
      return text.length > contactBounds.notes ? refuse('too_long', `${column}: at most ${contactBounds.notes} characters.`) : { value: text };
    case 'language': {
      if (text.length > contactBounds.language || !languageTag.test(text)) return refuse('invalid_language', `${column}: not a language tag such as fr or en-GB.`);
      try {
        return { value: Intl.getCanonicalLocales(text)[0] ?? text };
      } catch {
        return refuse('invalid_language', `${column}: not a language tag such as fr or en-GB.`);
      }
    }
    case 'status': {
      const lower = text.toLowerCase();
      return (contactStatuses as readonly string[]).includes(lower) ? { value: lower } : refuse('invalid_choice', `${column}: one of ${contactStatuses.join(', ')}.`);
    }
    case 'formality': {
      const lower = text.toLowerCase();
      return (formalities as readonly string[]).includes(lower) ? { value: lower } : refuse('invalid_choice', `${column}: one of ${formalities.join(', ')}.`);
    }
    case 'tone': {
      const lower = text.toLowerCase();
      return (tones as readonly string[]).includes(lower) ? { value: lower } : refuse('invalid_choice', `${column}: one of ${tones.join(', ')}.`);
    }
  }
}

/** Checks each carried field; the problems go to the line. */
function checkFields(carried: { field: ImportField; column: string; raw: string | null }[]) {
  const fields: Partial<Record<ImportField, string | null>> = {};
  const problems: LineProblem[] = [];
  for (const { field, column, raw } of carried) {
    const checked = checkField(field, raw, column);
    if ('problem' in checked) problems.push(checked.problem);
    else fields[field] = checked.value;
  }
  return { fields, problems };
}

/** A second line of the same entry is an error naming the first (one card per entry and layer). */
function markDuplicates(lines: ImportLine[]): ImportLine[] {
  const seen = new Map<string, number>();
  for (const line of lines) {
    if (line.kind === null || line.value === null || line.problems.length > 0) continue;
    const key = `${line.kind}\u0000${line.value}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, line.line);
    else line.problems.push({ column: null, reason: 'duplicate', message: `The same ${line.kind} as line ${first}.`, value: clip(line.value) });
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------
// vCard

function vcardFields(card: VcardCard, layer: ImportLayer, value: string) {
  const carried: { field: ImportField; column: string; raw: string | null }[] = [];
  if (layer === 'shared') {
    if (card.present.has('FN') || card.present.has('ORG')) {
      // Our export writes FN as the value itself when the card has no display name: that is not a name.
      const name = card.fn ?? card.org;
      carried.push({ field: 'displayName', column: card.fn ? 'FN' : 'ORG', raw: name !== null && name.toLowerCase() === value ? null : name });
    }
    if (card.present.has('X-STATUS')) carried.push({ field: 'status', column: 'X-STATUS', raw: card.status });
    if (card.present.has('NOTE')) carried.push({ field: 'orgNotes', column: 'NOTE', raw: card.note });
  } else {
    if (card.present.has('X-FORMALITY')) carried.push({ field: 'formality', column: 'X-FORMALITY', raw: card.formality });
    if (card.present.has('X-TONE')) carried.push({ field: 'tone', column: 'X-TONE', raw: card.tone });
    if (card.present.has('NOTE')) carried.push({ field: 'personalNotes', column: 'NOTE', raw: card.note });
  }
  if (card.present.has('LANG')) carried.push({ field: 'language', column: 'LANG', raw: card.lang });
  return checkFields(carried);
}

function vcardLines(card: VcardCard, layer: ImportLayer): ImportLine[] {
  // The card's first address, as a hint of which card it is (not normalised: it may be what is wrong).
  const hint = card.emails[0] ?? card.domains[0];
  const errorLine = (problems: LineProblem[]): ImportLine[] => [{ line: card.line, kind: null, value: hint === undefined ? null : hint.slice(0, 320), fields: {}, problems }];
  if (card.problems.length > 0) return errorLine(card.problems.map(({ property, reason, message }) => ({ column: property, reason, message })));
  const kind = card.kind ?? 'individual';
  let targets: { kind: ContactKind; raw: string; column: string }[];
  if (kind === 'individual') {
    targets = card.emails.map((raw) => ({ kind: 'contact' as const, raw, column: 'EMAIL' }));
  } else if (kind === 'org') {
    targets = card.domains.length
      ? card.domains.map((raw) => ({ kind: 'domain' as const, raw, column: 'X-DOMAIN' }))
      : [...new Set(card.emails.map((email) => domainOfAddress(email.toLowerCase())))].map((raw) => ({ kind: 'domain' as const, raw, column: 'EMAIL' }));
  } else {
    return errorLine([{ column: 'KIND', reason: 'vcard_kind', message: `KIND ${clip(kind)}: only individual and org cards are imported.`, value: clip(kind) }]);
  }
  if (targets.length === 0) {
    return errorLine([{ column: 'EMAIL', reason: 'required', message: 'The card has no EMAIL: an address book entry is an address or a domain.' }]);
  }
  return targets.map((target) => {
    const value = normaliseValue(target.kind, target.raw);
    if (value === null) {
      const message = target.kind === 'contact' ? `${target.column}: not an email address.` : `${target.column}: not a domain name such as example.com.`;
      return { line: card.line, kind: target.kind, value: null, fields: {}, problems: [{ column: target.column, reason: 'invalid_value', message, value: clip(target.raw) }] };
    }
    const { fields, problems } = vcardFields(card, layer, value);
    return { line: card.line, kind: target.kind, value, fields, problems };
  });
}

async function readVcardFile(text: string, bounds: ImportBounds) {
  try {
    return await readVcards(text, { maxCards: bounds.maxEntries, maxLineChars: 20_000, maxLinesPerCard: 1_000 });
  } catch (error) {
    if (error instanceof TooManyCardsError) throw tooManyEntries(bounds.maxEntries);
    if (error instanceof VcardFileError) throw fileError(error.reason, error.message);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// CSV

/** Header → what it feeds; an unknown header refuses the file. */
function csvColumns(headers: string[], layer: ImportLayer) {
  const allowed = fieldsOf(layer);
  const byLower = new Map<string, 'kind' | 'value' | ImportField>([
    ['kind', 'kind'],
    ['value', 'value'],
    ...allowed.map((field) => [field.toLowerCase(), field] as const),
  ]);
  const used = new Map<string, number>();
  const columns = headers.map((header, index) => {
    const target = byLower.get(header.toLowerCase());
    if (target === undefined) {
      throw fileError('csv_unknown_header', `The column "${clip(header)}" is not a field of the ${layer} layer (${['kind', 'value', ...allowed].join(', ')}).`, {
        header: clip(header),
      });
    }
    if (used.has(target)) throw fileError('csv_duplicate_header', `The column "${clip(header)}" appears twice.`, { header: clip(header) });
    used.set(target, index);
    return { header, target, index };
  });
  if (!used.has('value')) throw fileError('csv_value_missing', 'The file has no "value" column (the address or the domain).');
  return columns;
}

/** A cell our export neutralised (`'` before `=`, `+`, `-`, `@`, a tab or a CR) back to its text. */
const unneutralise = (cell: string) => (/^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell);

async function csvLines(text: string, layer: ImportLayer, bounds: ImportBounds): Promise<ImportLine[]> {
  const file = await readCsv(text, { maxLines: bounds.maxEntries, keep: bounds.maxEntries, maxFields: 100, maxLineChars: 64 * 1024 }).catch((error: unknown) => {
    throw error instanceof TooManyLinesError ? tooManyEntries(bounds.maxEntries) : error;
  });
  const columns = csvColumns(file.headers, layer);
  const valueColumn = columns.find((column) => column.target === 'value')!;
  const kindColumn = columns.find((column) => column.target === 'kind');
  const fieldColumns = columns.filter((column) => column.target !== 'kind' && column.target !== 'value');
  return file.records.map((source): ImportLine => {
    const record = { line: source.line, fields: source.fields.map(unneutralise) };
    const rawValue = (record.fields[valueColumn.index] ?? '').trim();
    const rawKind = kindColumn ? (record.fields[kindColumn.index] ?? '').trim().toLowerCase() : '';
    if (rawValue === '') return { line: record.line, kind: null, value: null, fields: {}, problems: [{ column: valueColumn.header, reason: 'required', message: `${valueColumn.header}: an address or a domain is required.` }] };
    if (rawKind !== '' && rawKind !== 'contact' && rawKind !== 'domain') {
      return { line: record.line, kind: null, value: null, fields: {}, problems: [{ column: kindColumn!.header, reason: 'invalid_choice', message: `${kindColumn!.header}: contact or domain.`, value: clip(rawKind) }] };
    }
    const kind: ContactKind = rawKind === 'contact' || rawKind === 'domain' ? rawKind : rawValue.includes('@') ? 'contact' : 'domain';
    const value = normaliseValue(kind, rawValue);
    if (value === null) {
      const message = kind === 'contact' ? `${valueColumn.header}: not an email address.` : `${valueColumn.header}: not a domain name such as example.com.`;
      return { line: record.line, kind, value: null, fields: {}, problems: [{ column: valueColumn.header, reason: 'invalid_value', message, value: clip(rawValue) }] };
    }
    const { fields, problems } = checkFields(fieldColumns.map((column) => ({ field: column.target as ImportField, column: column.header, raw: record.fields[column.index] ?? '' })));
    return { line: record.line, kind, value, fields, problems };
  });
}

/** The file's lines, with duplicates marked; a file beyond the bound of entries is 400 `too_many_entries`. */
export async function importLinesOf(format: ImportFormat, text: string, layer: ImportLayer, bounds: ImportBounds): Promise<ImportLine[]> {
  const lines = format === 'csv' ? await csvLines(text, layer, bounds) : (await readVcardFile(text, bounds)).flatMap((card) => vcardLines(card, layer));
  // A vCard card with many EMAILs makes many entries: the bound counts entries, not cards.
  if (lines.length > bounds.maxEntries) throw tooManyEntries(bounds.maxEntries);
  return markDuplicates(lines);
}
