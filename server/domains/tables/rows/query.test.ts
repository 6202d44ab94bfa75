import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/errors/app-error';
import { countStatement, rowsStatement } from './query';
import { checkConditions, checkSort, operatorsByType, parseFilter } from './view';
import { filterOperators } from './schemas';
import type { Column } from '../schemas';
import { assignSlots } from './typed-slots';

const column = (key: string, type: Column['type'], options: string[] = []): Column => ({
  key,
  label: key,
  type,
  isKey: false,
  required: false,
  options,
  width: null,
  description: null,
});

const columns = [column('name', 'text'), column('score', 'number'), column('plan', 'select', ['a', 'b']), column('on', 'boolean'), column('day', 'date')];

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('parseFilter', () => {
  it('reads a missing or blank filter as no condition', () => {
    expect(parseFilter(undefined)).toEqual([]);
    expect(parseFilter('  ')).toEqual([]);
  });

  it('refuses bad JSON, a non-array, and more than 20 conditions', () => {
    expect(errorOf(() => parseFilter('[')).details).toMatchObject({ reason: 'invalid_json' });
    expect(errorOf(() => parseFilter('{}')).code).toBe('request.bad_request');
    const many = JSON.stringify(Array.from({ length: 21 }, () => ({ column: 'name', op: 'empty' })));
    expect(errorOf(() => parseFilter(many)).details).toMatchObject({ reason: 'too_many_conditions', count: 21 });
  });

  it('names the index of the first malformed condition', () => {
    const text = JSON.stringify([{ column: 'name', op: 'empty' }, { column: 'name', op: 'eq', value: 'x' }, { column: 'name', op: 'nope' }]);
    expect(errorOf(() => parseFilter(text)).details).toMatchObject({ index: 2, reason: 'invalid_condition' });
  });
});

describe('checkConditions', () => {
  it('allows exactly the operators of each column type', () => {
    for (const type of Object.keys(operatorsByType) as Column['type'][]) {
      const columnsOfType = [column('c', type, ['x'])];
      for (const op of filterOperators) {
        const condition = { column: 'c', op, ...(op === 'between' ? { values: [1, 2] } : op === 'in' ? { values: ['x'] } : { value: 'x' }) };
        let reason: unknown = null;
        try {
          checkConditions(columnsOfType, [condition]);
        } catch (error) {
          reason = (error as AppError).details.reason;
        }
        expect(reason === 'operator_not_allowed', `${type} ${op}`).toBe(!operatorsByType[type].includes(op));
      }
    }
  });

  it('normalises date-time values to UTC and widens a date to midnight UTC', () => {
    const checked = checkConditions([column('at', 'datetime')], [
      { column: 'at', op: 'gt', value: '2025-01-01T10:00:00+02:00' },
      { column: 'at', op: 'lt', value: '2025-01-02' },
    ]);
    expect(checked.map((condition) => condition.values)).toEqual([['2025-01-01T08:00:00.000Z'], ['2025-01-02T00:00:00.000Z']]);
  });
});

describe('checkSort', () => {
  it('accepts column keys, createdAt and updatedAt, and refuses anything else', () => {
    expect(checkSort(columns, 'score', 'desc')).toMatchObject({ kind: 'cell', column: { key: 'score' }, dir: 'desc' });
    expect(checkSort(columns, 'updatedAt', 'asc')).toEqual({ kind: 'updatedAt', dir: 'asc' });
    expect(errorOf(() => checkSort(columns, 'cells', 'asc')).details).toMatchObject({ reason: 'unknown_sort' });
  });
});

describe('rowsStatement on a table without typed slots (cells read as JSONB)', () => {
  const tableId = '3f0b8a8e-7f55-4a51-9d53-0a4a3e8f1c11';
  const hostile = "x'); DROP TABLE table_rows; --";

  it('carries every user value and column key as a parameter, never in the SQL text', () => {
    const conditions = checkConditions(columns, [
      { column: 'name', op: 'contains', value: hostile },
      { column: 'plan', op: 'eq', value: hostile },
      { column: 'score', op: 'between', values: [1, 2] },
    ]);
    const statement = rowsStatement({ tableId, conditions, match: 'any', tsquery: "'drop':*", sort: checkSort(columns, 'name', 'desc'), offset: 5, limit: 10, slots: null });
    expect(statement.plan).toBe('scan');
    expect(statement.text).not.toContain('DROP');
    expect(statement.text).not.toMatch(/'name'|'plan'|'score'/);
    expect(statement.values).toContain(hostile);
    expect(statement.values).toContain('name');
    expect(statement.values).toContain('plan');
    expect(statement.values).toEqual(expect.arrayContaining([1, 2, "'drop':*", 5, 10]));
  });

  it('joins conditions with AND for all and OR for any', () => {
    const conditions = checkConditions(columns, [
      { column: 'name', op: 'eq', value: 'a' },
      { column: 'name', op: 'starts_with', value: 'b' },
    ]);
    expect(rowsStatement({ tableId, conditions, match: 'all', tsquery: null, sort: checkSort(columns, 'createdAt', 'asc'), offset: 0, limit: 1, slots: null }).text).toMatch(/= lower\(\$3::text\) AND starts_with/);
    expect(rowsStatement({ tableId, conditions, match: 'any', tsquery: null, sort: checkSort(columns, 'createdAt', 'asc'), offset: 0, limit: 1, slots: null }).text).toMatch(/= lower\(\$3::text\) OR starts_with/);
  });

  it('reads an unfiltered page in creation or update order along an index, without sort or count', () => {
    for (const sort of ['createdAt', 'updatedAt']) {
      const statement = rowsStatement({ tableId, conditions: [], match: 'all', tsquery: null, sort: checkSort(columns, sort, 'desc'), offset: 90_000, limit: 100, slots: null });
      expect(statement.plan).toBe('index');
      expect(statement.text).not.toContain('OVER');
    }
    expect(rowsStatement({ tableId, conditions: [], match: 'all', tsquery: null, sort: checkSort(columns, 'score', 'asc'), offset: 0, limit: 1, slots: null }).plan).toBe('scan');
  });

  it('checks the JSON type before casting a number sort key only when asked to', () => {
    const input = { tableId, conditions: [], match: 'all' as const, tsquery: null, sort: checkSort(columns, 'score', 'asc'), offset: 0, limit: 1, slots: null };
    expect(rowsStatement(input).text).not.toContain('jsonb_typeof');
    expect(rowsStatement({ ...input, guarded: true }).text).toContain('jsonb_typeof');
  });

  it('counts with the same conditions', () => {
    const conditions = checkConditions(columns, [{ column: 'on', op: 'eq', value: true }, { column: 'score', op: 'in', values: [1, 2] }]);
    const count = countStatement({ tableId, conditions, match: 'all', tsquery: null, slots: null });
    expect(count.text).toBe('SELECT count(*)::int AS total FROM table_rows WHERE table_id = $1::uuid AND ((cells->>$2::text) COLLATE "C" = $3::text AND (cells->>$4::text)::float8 = ANY($5::float8[]))');
    expect(count.values).toEqual([tableId, 'on', 'true', 'score', [1, 2]]);
  });

  it('checks the JSON type before casting number conditions only when asked to', () => {
    const conditions = checkConditions(columns, [{ column: 'score', op: 'gt', value: 1 }]);
    expect(countStatement({ tableId, conditions, match: 'all', tsquery: null, slots: null }).text).not.toContain('jsonb_typeof');
    expect(countStatement({ tableId, conditions, match: 'all', tsquery: null, slots: null, guarded: true }).text).toContain('jsonb_typeof');
  });
});

describe('rowsStatement on typed slots', () => {
  const tableId = '3f0b8a8e-7f55-4a51-9d53-0a4a3e8f1c11';
  const slotMap = assignSlots(columns, new Map());
  const slots = Object.fromEntries(slotMap);

  it('filters and sorts on the slot columns, with text values lower-cased like the slots', () => {
    const conditions = checkConditions(columns, [
      { column: 'name', op: 'contains', value: 'ÉMILE' },
      { column: 'score', op: 'between', values: [1, 2] },
      { column: 'plan', op: 'in', values: ['Pro'] },
      { column: 'on', op: 'empty' },
    ]);
    const statement = rowsStatement({ tableId, conditions, match: 'all', tsquery: null, sort: checkSort(columns, 'score', 'desc'), offset: 0, limit: 10, slots: slotMap });
    expect(statement.text).not.toContain('cells->>');
    expect(statement.text).toContain(`strpos(${slots.name}, $2::text) > 0`);
    expect(statement.text).toContain(`${slots.score} BETWEEN $3::float8 AND $4::float8`);
    expect(statement.text).toContain(`${slots.plan} = ANY($5::text[])`);
    expect(statement.text).toContain(`${slots.on} IS NULL`);
    expect(statement.text).toContain(`${slots.score} AS k`);
    // Text folds case in JavaScript (the slot holds the lower-cased text); select values stay exact.
    expect(statement.values).toEqual([tableId, 'émile', 1, 2, ['Pro'], 0, 10]);
  });

  it('reads a column without a slot from the cells', () => {
    const { score: _score, ...partial } = slots;
    const conditions = checkConditions(columns, [{ column: 'score', op: 'gt', value: 1 }, { column: 'name', op: 'eq', value: 'a' }]);
    const count = countStatement({ tableId, conditions, match: 'any', tsquery: null, slots: new Map(Object.entries(partial)) });
    expect(count.text).toBe(`SELECT count(*)::int AS total FROM table_rows WHERE table_id = $1::uuid AND ((cells->>$2::text)::float8 > $3::float8 OR ${slots.name} = $4::text)`);
  });

  it('never puts a user value in the SQL text', () => {
    const hostile = "x'); DROP TABLE table_rows; --";
    const conditions = checkConditions(columns, [{ column: 'name', op: 'starts_with', value: hostile }, { column: 'plan', op: 'neq', value: hostile }]);
    const statement = rowsStatement({ tableId, conditions, match: 'any', tsquery: null, sort: checkSort(columns, 'name', 'asc'), offset: 0, limit: 1, slots: slotMap });
    expect(statement.text).not.toContain('DROP');
    expect(statement.values).toEqual(expect.arrayContaining([hostile.toLowerCase(), hostile]));
  });
});
