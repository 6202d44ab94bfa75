/**
 * The rows query: `filter` conditions checked against the table's columns, then one parameterised
 * SQL statement for a page of rows with the filtered total. Pure (no database access): the service
 * runs what this builds.
 *
 * How a page is computed (measured on 100,000 rows × 20 columns, see bench/tables-rows.ts):
 *
 * - Conditions and cell sorts read the columns' typed slots (typed-slots.ts): plain float8 and text
 *   columns, so no JSONB is extracted per row. A column without a slot (a table written before
 *   slots existed, or more columns of a kind than slots) is read as `cells->>key` instead, with the
 *   same semantics (both paths are tested to answer alike).
 * - A table's columns are data, so no B-tree serves a sort or a range filter on a cell: a filtered
 *   or cell-sorted page is one sequential scan of the table's rows (parallel when the planner wants
 *   it) projecting only `(seq, sort key)`; those narrow tuples are sorted and counted by a window
 *   function in the same pass, and the page's full rows are then fetched by (table_id, seq).
 * - Parallel workers are made cheap to the planner for this statement (see rowsTransactionBegin in
 *   rows-service.ts), jit is off, work_mem holds the sort: measured, not guessed.
 * - `q` uses the generated `search` tsvector: its GIN index serves a selective search (bitmap
 *   scan); a broad one is checked row by row in the scan (cheaper than the bitmap then).
 * - Without filter, q or cell sort, a page is read along the (table_id, seq) or
 *   (table_id, updated_at, seq) index, index-only, and joined back: no sort, no count (the total is
 *   the table's exact `row_count`).
 *
 * User values are always parameters; column keys too (`cells->>$n`); slot names come from the
 * table's map, checked against the fixed slot list when read (parseTypedSlots).
 */
import { appError } from '../../core/errors/app-error';
import { simplifyIssue } from '../../core/errors/zod-issues';
import { normaliseCell } from './cells';
import {
  filterSchema,
  maxFilterConditions,
  rowSorts,
  type FilterCondition,
  type FilterOperator,
} from './rows-schemas';
import type { Column } from './schemas';
import { slotText, type TypedSlots } from './typed-slots';

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

const metaColumns = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;
type MetaColumn = keyof typeof metaColumns;

type Scalar = string | number | boolean;

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
      const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
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

/**
 * Turns `q` into a prefix query over the lexemes PostgreSQL's own parser finds in it, after the same
 * translation as the generated `search` column ("@" and "." separate words), so a word splits
 * exactly as in the rows' tsvectors. Run with `q` as $1; answers one row `{query}`, null when `q`
 * holds no word (then `q` filters nothing).
 */
export const prefixQuerySql = `
  SELECT string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & ' ORDER BY lexeme)::tsquery::text AS query
    FROM unnest(to_tsvector('simple', translate($1::text, '@.', '  ')))`;

class Params {
  readonly values: unknown[] = [];
  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

const comparisons: Partial<Record<FilterOperator, string>> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** A comparison of `cell` (an SQL expression) by the condition's operator; empty/not_empty are the caller's. */
function comparisonSql(op: FilterOperator, cell: string, value: (index: number) => string, list: () => string): string {
  switch (op) {
    case 'neq':
      return `${cell} IS DISTINCT FROM ${value(0)}`;
    case 'between':
      return `${cell} BETWEEN ${value(0)} AND ${value(1)}`;
    case 'in':
      return `${cell} = ANY(${list()})`;
    case 'contains':
      return `strpos(${cell}, ${value(0)}) > 0`;
    case 'starts_with':
      return `starts_with(${cell}, ${value(0)})`;
    default:
      return `${cell} ${comparisons[op]} ${value(0)}`;
  }
}

/**
 * A cell condition on the column's typed slot (typed-slots.ts): a plain column compared with values
 * in the slot's own form — numbers as float8, text and email lower-cased as the slot is, every other
 * type as its stored text (the slot's collation is "C": byte-wise, so ISO dates are chronological).
 */
function slotConditionSql(condition: Extract<CheckedCondition, { target: 'cell' }>, slot: string, params: Params): string {
  if (condition.op === 'empty') return `${slot} IS NULL`;
  if (condition.op === 'not_empty') return `${slot} IS NOT NULL`;
  if (slot[0] === 'n') {
    return comparisonSql(condition.op, slot, (index) => params.add(condition.values[index], 'float8'), () => params.add(condition.values, 'float8[]'));
  }
  const values = condition.values.map((value) => slotText(condition.column.type, value));
  return comparisonSql(condition.op, slot, (index) => params.add(values[index], 'text'), () => params.add(values, 'text[]'));
}

/**
 * One condition as SQL: on the column's typed slot when it has one, else over `cells->>key` (the key
 * a parameter too). Text and email compare case-insensitively; select, boolean, date and date-time
 * compare their stored text exactly (ISO dates and UTC date-times in byte order are chronological);
 * numbers compare as float8 (`guarded`: only cells holding a JSON number, see sortKey). "Not equal"
 * includes empty cells.
 */
function conditionSql(condition: CheckedCondition, params: Params, slots: TypedSlots | null, guarded: boolean): string {
  if (condition.target === 'meta') {
    const field = metaColumns[condition.field];
    const at = (value: string) => params.add(value, 'timestamptz');
    switch (condition.op) {
      case 'neq':
        return `${field} <> ${at(condition.values[0])}`;
      case 'between':
        return `${field} BETWEEN ${at(condition.values[0])} AND ${at(condition.values[1])}`;
      case 'in':
        return `${field} = ANY(${params.add(condition.values, 'timestamptz[]')})`;
      case 'empty':
        return 'false';
      case 'not_empty':
        return 'true';
      default:
        return `${field} ${comparisons[condition.op]} ${at(condition.values[0])}`;
    }
  }
  const slot = slots?.[condition.column.key];
  if (slot) return slotConditionSql(condition, slot, params);
  const key = params.add(condition.column.key, 'text');
  if (condition.op === 'empty') return `NOT (cells ? ${key})`;
  if (condition.op === 'not_empty') return `(cells ? ${key})`;

  let cell: string;
  let value: (value: Scalar) => string;
  let list: () => string;
  switch (condition.column.type) {
    case 'text':
    case 'email':
      cell = `lower(cells->>${key})`;
      value = (v) => `lower(${params.add(v, 'text')})`;
      list = () => `ARRAY(SELECT lower(v) FROM unnest(${params.add(condition.values, 'text[]')}) AS v)`;
      break;
    case 'number':
      cell = guarded ? `(CASE WHEN jsonb_typeof(cells->${key}) = 'number' THEN (cells->>${key})::float8 END)` : `(cells->>${key})::float8`;
      value = (v) => params.add(v, 'float8');
      list = () => params.add(condition.values, 'float8[]');
      break;
    default:
      // select, boolean ("true"/"false"), date, datetime: the stored text, compared byte-wise.
      cell = `(cells->>${key}) COLLATE "C"`;
      value = (v) => params.add(String(v), 'text');
      list = () => params.add(condition.values.map(String), 'text[]');
  }
  return comparisonSql(condition.op, cell, (index) => value(condition.values[index]), list);
}

/** The WHERE clause after `table_id = $1`: conditions joined by AND (`all`) or OR (`any`), and `q`. */
function whereClause(input: Pick<RowsStatementInput, 'conditions' | 'match' | 'tsquery' | 'slots' | 'guarded'>, params: Params): string {
  const { conditions, match, tsquery } = input;
  const parts = conditions.map((condition) => conditionSql(condition, params, input.slots, input.guarded ?? false));
  let clause = parts.length === 0 ? '' : parts.length === 1 ? parts[0] : `(${parts.join(match === 'all' ? ' AND ' : ' OR ')})`;
  if (tsquery !== null) {
    const search = `search @@ ${params.add(tsquery, 'tsquery')}`;
    clause = clause ? `${clause} AND ${search}` : search;
  }
  return clause ? ` AND ${clause}` : '';
}

/**
 * The sort key of a cell sort: the column's typed slot when it has one, else from `cells`. Numbers
 * sort numerically (float8: every stored number is a JS double), dates and date-times
 * chronologically (their stored ISO texts in byte order), booleans false first, text
 * case-insensitively. `guarded` checks the JSON type before the cast: the service retries with it
 * when a stored value is not a number (never written by this service).
 */
function sortKey(sort: SortSpec, params: Params, slots: TypedSlots | null, guarded: boolean): string {
  if (sort.kind === 'createdAt') return 'seq';
  if (sort.kind === 'updatedAt') return 'updated_at';
  const column = sort.column!;
  const slot = slots?.[column.key];
  if (slot) return slot;
  const key = params.add(column.key, 'text');
  switch (column.type) {
    case 'number':
      return guarded ? `CASE WHEN jsonb_typeof(cells->${key}) = 'number' THEN (cells->>${key})::float8 END` : `(cells->>${key})::float8`;
    case 'date':
    case 'datetime':
    case 'boolean':
      return `(cells->>${key}) COLLATE "C"`;
    default:
      return `lower(cells->>${key})`;
  }
}

export const rowColumnsSql =
  'r.id, r.cells, r.created_at, r.updated_at, r.created_by_member, r.created_by_execution, r.updated_by_member, r.updated_by_execution';

export interface RowsStatementInput {
  tableId: string;
  conditions: CheckedCondition[];
  match: 'all' | 'any';
  /** From prefixQuerySql; null: no full-text filter. */
  tsquery: string | null;
  sort: SortSpec;
  offset: number;
  limit: number;
  /** The table's typed slots (null: none yet, every condition reads `cells`). */
  slots: TypedSlots | null;
  /** Number casts check the JSON type first (see sortKey). */
  guarded?: boolean;
}

export interface RowsStatement {
  text: string;
  values: unknown[];
  /** `index`: unfiltered, in creation or update order, read along an index; total = row_count. */
  plan: 'index' | 'scan';
}

/** Which plan a query gets (see rowsStatement): `index` needs no filter, no q and no cell sort. */
export function planOf(conditions: CheckedCondition[], hasQ: boolean, sort: SortSpec): RowsStatement['plan'] {
  return conditions.length === 0 && !hasQ && sort.kind !== 'cell' ? 'index' : 'scan';
}

/**
 * One statement answering the page's rows in order, each carrying `total` (rows that match, from
 * the scan plan only) and `total_unfiltered` (the table's row_count, read in the same snapshot).
 * An empty answer with offset > 0 means the offset is at or beyond the total.
 */
export function rowsStatement(input: RowsStatementInput): RowsStatement {
  const params = new Params();
  const table = params.add(input.tableId, 'uuid');
  const dir = input.sort.dir === 'desc' ? 'DESC' : 'ASC';
  const where = whereClause(input, params);
  const unfiltered = `(SELECT row_count FROM data_tables WHERE id = ${table}) AS total_unfiltered`;

  if (planOf(input.conditions, input.tsquery !== null, input.sort) === 'index') {
    const offset = params.add(input.offset, 'int');
    const limit = params.add(input.limit, 'int');
    const keys = input.sort.kind === 'createdAt' ? ['seq'] : ['updated_at', 'seq'];
    const order = (prefix: string) => keys.map((key) => `${prefix}${key} ${dir}`).join(', ');
    return {
      plan: 'index',
      values: params.values,
      text: `
        SELECT ${rowColumnsSql}, NULL::bigint AS total, ${unfiltered}
          FROM (SELECT ${keys.join(', ')} FROM table_rows WHERE table_id = ${table}
                 ORDER BY ${order('')} OFFSET ${offset} LIMIT ${limit}) AS p
          JOIN table_rows AS r ON r.table_id = ${table} AND r.seq = p.seq
         ORDER BY ${order('p.')}`,
    };
  }

  const key = sortKey(input.sort, params, input.slots, input.guarded ?? false);
  const byCreation = input.sort.kind === 'createdAt';
  const order = (prefix: string) => (byCreation ? `${prefix}seq ${dir}` : `${prefix}k ${dir} NULLS LAST, ${prefix}seq ${dir}`);
  const offset = params.add(input.offset, 'int');
  const limit = params.add(input.limit, 'int');
  return {
    plan: 'scan',
    values: params.values,
    // Only (seq, sort key) travel through the sort, the parallel workers' queues and the window:
    // the narrower the tuple, the cheaper all three (carrying the uuid as well cost 16 % more CPU).
    // The inner ORDER BY is kept through the window (which only counts) to OFFSET/LIMIT, so the sort
    // runs below the Gather, in the workers; the outer ORDER BY restores the page's order after the
    // join back to the rows by (table_id, seq).
    text: `
      SELECT ${rowColumnsSql}, p.total, ${unfiltered}
        FROM (SELECT o.seq, ${byCreation ? '' : 'o.k, '}count(*) OVER () AS total
                FROM (SELECT seq${byCreation ? '' : `, ${key} AS k`} FROM table_rows
                       WHERE table_id = ${table}${where}
                       ORDER BY ${order('')}) AS o
              OFFSET ${offset} LIMIT ${limit}) AS p
        JOIN table_rows AS r ON r.table_id = ${table} AND r.seq = p.seq
       ORDER BY ${order('p.')}`,
  };
}

/** Rows matching the conditions and `q` (for the details of an out-of-range page). */
export function countStatement(input: Pick<RowsStatementInput, 'tableId' | 'conditions' | 'match' | 'tsquery' | 'slots' | 'guarded'>): { text: string; values: unknown[] } {
  const params = new Params();
  const table = params.add(input.tableId, 'uuid');
  const where = whereClause(input, params);
  return { text: `SELECT count(*)::int AS total FROM table_rows WHERE table_id = ${table}${where}`, values: params.values };
}

/**
 * Every row matching the conditions and `q`, cells only, in the sort's order (creation order
 * breaking ties): the CSV export of a view, read through a cursor (csv-export.ts).
 */
export function exportStatement(input: Pick<RowsStatementInput, 'tableId' | 'conditions' | 'match' | 'tsquery' | 'sort' | 'slots' | 'guarded'>): { text: string; values: unknown[] } {
  const params = new Params();
  const table = params.add(input.tableId, 'uuid');
  const where = whereClause(input, params);
  const dir = input.sort.dir === 'desc' ? 'DESC' : 'ASC';
  const order =
    input.sort.kind === 'createdAt'
      ? `seq ${dir}`
      : input.sort.kind === 'updatedAt'
        ? `updated_at ${dir}, seq ${dir}`
        : `${sortKey(input.sort, params, input.slots, input.guarded ?? false)} ${dir} NULLS LAST, seq ${dir}`;
  return { text: `SELECT cells FROM table_rows WHERE table_id = ${table}${where} ORDER BY ${order}`, values: params.values };
}
