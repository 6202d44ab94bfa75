/**
 * The rows query: one parameterised SQL statement for a page of rows with the filtered total, built
 * from a view checked by view.ts. Pure (no database access): the service runs what this builds.
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
 *   read-transaction.ts), jit is off, work_mem holds the sort: measured, not guessed.
 * - `q` uses the generated `search` tsvector: its GIN index serves a selective search (bitmap
 *   scan); a broad one is checked row by row in the scan (cheaper than the bitmap then).
 * - Without filter, q or cell sort, a page is read along the (table_id, seq) or
 *   (table_id, updated_at, seq) index, index-only, and joined back: no sort, no count (the total is
 *   the table's exact `row_count`).
 *
 * User values are always parameters; column keys too (`cells->>$n`); slot names come from the
 * table's map (a Map: a column key never finds an inherited member), checked against the fixed slot
 * list when read (parseTypedSlots) and again where they enter SQL (slotSql).
 */
import type { FilterOperator } from './schemas';
import { slotSql, slotText, type TypedSlots } from './typed-slots';
import { metaColumns, type CheckedCondition, type Scalar, type SortSpec } from './view';

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
  const slot = slots?.get(condition.column.key);
  if (slot) return slotConditionSql(condition, slotSql(slot), params);
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
  const slot = slots?.get(column.key);
  if (slot) return slotSql(slot);
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
 * breaking ties): the CSV export of a view, read through a cursor (../csv/export.ts).
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
