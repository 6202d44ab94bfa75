/**
 * A view of a table's rows (`filter`, `match`, `sort`, `dir`, `q`), checked against the table's
 * columns before any SQL is built: every condition's column, operator and values, and the sort.
 * Pure; what does not fit is 400 `request.bad_request` naming the condition. Shared by the rows
 * query and the CSV export.
 */
import { appError } from '../../../core/errors/app-error';
import { findUnstorableText } from '../../../core/http/storable-text';
import { simplifyIssue } from '../../../core/errors/zod-issues';
import type { Column } from '../schemas';
import { normaliseCell } from './cells';
import { filterSchema, maxFilterConditions, rowSorts, type FilterCondition, type FilterOperator } from './schemas';

type ColumnType = Column['type'];

/** Operators that fit each column type (`createdAt`/`updatedAt` filter like datetime columns). */
export const operatorsByType: Record<ColumnType, readonly FilterOperator[]> = {
  text: ['eq', 'neq', 'contains', 'starts_with', 'empty', 'not_empty', 'in'],
  email: ['eq', 'neq', 'contains', 'starts_with', 'empty', 'not_empty', 'in'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'not_empty', 'in'],
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'not_empty', 'in'],
  datetime: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'empty', 'not_empty', 'in'],
  boolean: ['eq', 'empty', 'not_empty'],
  select: ['eq', 'neq', 'in', 'empty', 'not_empty'],
};

export const metaColumns = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;
export type MetaColumn = keyof typeof metaColumns;

export type Scalar = string | number | boolean;

/** A condition after checking: its target and normalised values. */
export type CheckedCondition =
  | { index: number; target: 'cell'; column: Column; op: FilterOperator; values: Scalar[] }
  | { index: number; target: 'meta'; field: MetaColumn; op: FilterOperator; values: string[] };

function badFilter(index: number | null, reason: string, message: string, extra: Record<string, unknown> = {}) {
  return appError('request.bad_request', {
    message: index === null ? `Invalid filter: ${message}` : `Invalid filter condition ${index}: ${message}`,
    details: { ...(index === null ? {} : { index }), reason, ...extra },
  });
}

/** `filter` query parameter → conditions (shape only). Bad JSON or shape: 400 naming the condition. */
export function parseFilter(text: string | undefined): FilterCondition[] {
  if (text === undefined || text.trim() === '') return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw badFilter(null, 'invalid_json', 'not valid JSON (expected a JSON array of conditions).');
  }
  // The query string was checked for unstorable text, but JSON escapes (`\u0000`, a lone `\ud800`)
  // only become such text here; reaching SQL they would fail the query (a 500).
  const unstorable = findUnstorableText(raw);
  if (unstorable) {
    const index = typeof unstorable[0] === 'string' && /^\d+$/.test(unstorable[0]) ? Number(unstorable[0]) : null;
    throw badFilter(index, 'unstorable_text', 'holds text that cannot be stored (a NUL character or an unpaired surrogate).', { path: unstorable });
  }
  if (Array.isArray(raw) && raw.length > maxFilterConditions) {
    throw badFilter(null, 'too_many_conditions', `at most ${maxFilterConditions} conditions.`, { max: maxFilterConditions, count: raw.length });
  }
  const parsed = filterSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const index = typeof first?.path[0] === 'number' ? first.path[0] : null;
    throw badFilter(index, 'invalid_condition', first?.message ?? 'does not match {column, op, value?, values?}.', {
      issues: parsed.error.issues.map(simplifyIssue),
    });
  }
  return parsed.data;
}

const needsValue: ReadonlySet<FilterOperator> = new Set(['eq', 'neq', 'contains', 'starts_with', 'gt', 'gte', 'lt', 'lte']);
const needsValues: ReadonlySet<FilterOperator> = new Set(['in', 'between']);

/** One filter value as the stored form of the column type, or null when it does not fit. */
function normaliseValue(type: ColumnType | 'meta', column: Column | null, value: Scalar): Scalar | null {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const result = normaliseCell(column!, value, 10);
      return 'value' in result && typeof result.value === 'string' ? result.value : null;
    }
    case 'datetime':
    case 'meta': {
      if (typeof value !== 'string') return null;
      // A date alone means midnight UTC, as when a date column becomes a date-time column.
      const text = value.length === 10 && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
      const result = normaliseCell({ ...(column ?? ({} as Column)), type: 'datetime' }, text, 100);
      return 'value' in result && typeof result.value === 'string' ? result.value : null;
    }
    default:
      return typeof value === 'string' && value.length > 0 && value.length <= 10_000 ? value : null;
  }
}

/** Checks every condition against the table's columns: 400 `request.bad_request` naming the condition index. */
export function checkConditions(columns: Column[], conditions: FilterCondition[]): CheckedCondition[] {
  const byKey = new Map(columns.map((column) => [column.key, column]));
  return conditions.map((condition, index) => {
    const meta = Object.hasOwn(metaColumns, condition.column) ? (condition.column as MetaColumn) : null;
    const column = meta ? null : byKey.get(condition.column);
    if (!meta && !column) throw badFilter(index, 'unknown_column', `no column "${condition.column}".`, { column: condition.column });
    const type: ColumnType = meta ? 'datetime' : column!.type;
    if (!operatorsByType[type].includes(condition.op)) {
      throw badFilter(index, 'operator_not_allowed', `operator ${condition.op} does not apply to a ${type} column.`, {
        column: condition.column,
        op: condition.op,
        allowed: operatorsByType[type],
      });
    }
    let given: Scalar[] = [];
    if (needsValue.has(condition.op)) {
      if (condition.value === undefined) throw badFilter(index, 'value_required', `operator ${condition.op} needs \`value\`.`, { column: condition.column, op: condition.op });
      given = [condition.value];
    } else if (needsValues.has(condition.op)) {
      if (condition.values === undefined) throw badFilter(index, 'values_required', `operator ${condition.op} needs \`values\`.`, { column: condition.column, op: condition.op });
      if (condition.op === 'between' && condition.values.length !== 2) {
        throw badFilter(index, 'invalid_value', 'between needs `values` [from, to].', { column: condition.column, op: condition.op });
      }
      given = condition.values;
    }
    const values = given.map((value) => normaliseValue(meta ? 'meta' : type, column ?? null, value));
    if (values.some((value) => value === null)) {
      throw badFilter(index, 'invalid_value', `the value does not fit the ${type} column "${condition.column}".`, { column: condition.column, op: condition.op });
    }
    return meta
      ? { index, target: 'meta' as const, field: meta, op: condition.op, values: values as string[] }
      : { index, target: 'cell' as const, column: column!, op: condition.op, values: values as Scalar[] };
  });
}

/** What a view of the rows asks for (the rows query's and the export's parameters). */
export interface RowsView {
  q?: string;
  filter?: string;
  match: 'all' | 'any';
  sort: string;
  dir: 'asc' | 'desc';
}

/** A view checked against the table's columns (400 naming what does not fit); `q` null when blank. */
export function checkView(columns: Column[], view: RowsView) {
  return {
    conditions: checkConditions(columns, parseFilter(view.filter)),
    match: view.match,
    sort: checkSort(columns, view.sort, view.dir),
    q: view.q?.trim() ? view.q : null,
  };
}

export interface SortSpec {
  kind: 'createdAt' | 'updatedAt' | 'cell';
  column?: Column;
  dir: 'asc' | 'desc';
}

export function checkSort(columns: Column[], sort: string, dir: 'asc' | 'desc'): SortSpec {
  if ((rowSorts as readonly string[]).includes(sort)) return { kind: sort as 'createdAt' | 'updatedAt', dir };
  const column = columns.find((candidate) => candidate.key === sort);
  if (!column) {
    throw appError('request.bad_request', {
      message: `Cannot sort by "${sort}": not a column of this table, nor createdAt or updatedAt.`,
      details: { reason: 'unknown_sort', sort },
    });
  }
  return { kind: 'cell', column, dir };
}
