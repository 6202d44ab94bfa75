import { describe, expect, it } from 'vitest';
import { convertCell, isEmailAddress, keyValueOf, mergeCells, normaliseCell, parseTextCell, searchTextOf, validateCells } from './cells';
import type { Column } from '../schemas';

const column = (type: Column['type'], extra: Partial<Column> = {}): Column => ({
  key: 'c',
  label: 'C',
  type,
  isKey: false,
  required: false,
  options: [],
  width: null,
  description: null,
  ...extra,
});

describe('normaliseCell', () => {
  it.each([
    ['text', 'hello', { value: 'hello' }],
    ['text', 12, { reason: 'wrong_type' }],
    ['text', 'x'.repeat(41), { reason: 'too_long' }],
    ['number', 4.5, { value: 4.5 }],
    ['number', '4.5', { value: 4.5 }],
    ['number', 'EUR 87.40', { value: 87.4 }],
    ['number', '1,234', { reason: 'ambiguous_number', readings: [1234, 1.234] }],
    ['number', 'lots', { reason: 'wrong_type' }],
    ['number', Number.NaN, { reason: 'wrong_type' }],
    ['boolean', false, { value: false }],
    ['boolean', 'true', { reason: 'wrong_type' }],
    ['email', ' ada@example.com ', { value: 'ada@example.com' }],
    ['email', 'not-an-email', { reason: 'invalid_email' }],
    ['date', '2026-02-28', { value: '2026-02-28' }],
    ['date', '2026-02-30', { reason: 'invalid_date' }],
    ['date', '28/02/2026', { reason: 'invalid_date' }],
    ['datetime', '2026-02-28T10:00:00+02:00', { value: '2026-02-28T08:00:00.000Z' }],
    ['datetime', '2026-02-28 10:00', { reason: 'invalid_datetime' }],
    ['datetime', '2026-02-28T10:00:00', { reason: 'invalid_datetime' }],
    ['text', '', { value: null }],
    ['number', null, { value: null }],
  ] as const)('%s %j → %j', (type, value, expected) => {
    expect(normaliseCell(column(type), value, 40)).toEqual(expected);
  });

  it('accepts only the options of a select column', () => {
    const select = column('select', { options: ['open', 'closed'] });
    expect(normaliseCell(select, 'open', 100)).toEqual({ value: 'open' });
    expect(normaliseCell(select, 'Open', 100)).toEqual({ reason: 'not_an_option' });
  });
});

describe('validateCells', () => {
  const columns = [column('email', { key: 'email', required: true, isKey: true }), column('number', { key: 'age' })];

  it('reports every problem at once', () => {
    const result = validateCells(columns, { email: 'bad', age: 'old', nope: 1 }, { partial: false, maxCellChars: 100 });
    expect(result.problems.map((p) => [p.column, p.reason])).toEqual([
      ['email', 'invalid_email'],
      ['age', 'wrong_type'],
      ['nope', 'unknown_column'],
    ]);
  });

  it('requires required columns on insert but not on a partial update', () => {
    expect(validateCells(columns, { age: 3 }, { partial: false, maxCellChars: 100 }).problems.map((p) => p.reason)).toEqual(['required']);
    expect(validateCells(columns, { age: 3 }, { partial: true, maxCellChars: 100 }).problems).toEqual([]);
    expect(validateCells(columns, { email: null }, { partial: true, maxCellChars: 100 }).problems.map((p) => p.reason)).toEqual(['required']);
  });
});

describe('derived texts', () => {
  const columns = [column('email', { key: 'email', isKey: true }), column('text', { key: 'name' })];

  it('keys emails case-insensitively', () => {
    expect(keyValueOf(columns, { email: 'Ada@Example.com' })).toBe('ada@example.com');
    expect(keyValueOf(columns, {})).toBeNull();
    expect(keyValueOf([column('text')], { c: 'x' })).toBeNull();
  });

  it('searches every value in column order', () => {
    expect(searchTextOf(columns, { name: 'Ada', email: 'ada@x.io' })).toBe('ada@x.io Ada');
  });

  it('merges updates and drops cleared cells', () => {
    expect(mergeCells({ a: 1, b: 'x' }, { b: null, c: true })).toEqual({ a: 1, c: true });
  });
});

describe('parseTextCell (CSV)', () => {
  it.each([
    ['number', ' 1.234 ', 1.234],
    ['number', '-12.5e3', -12500],
    ['number', ' 1 234.5 ', '1 234.5'],
    ['number', 'abc', 'abc'],
    ['boolean', 'Yes', true],
    ['boolean', 'non', false],
    ['boolean', 'maybe', 'maybe'],
    ['text', '  ', null],
    ['date', ' 2026-01-02 ', '2026-01-02'],
  ] as const)('%s %j → %j', (type, text, expected) => {
    expect(parseTextCell(column(type), text)).toEqual(expected);
  });

  it('reads what programs write as JavaScript does (an export round-trips), the rest as people write numbers', () => {
    const number = column('number');
    const read = (text: string) => normaliseCell(number, parseTextCell(number, text), 100);
    expect(read('1.234')).toEqual({ value: 1.234 });
    expect(read('1 234,5 €')).toEqual({ value: 1234.5 });
    expect(read('1,234')).toEqual({ reason: 'ambiguous_number', readings: [1234, 1.234] });
  });
});

describe('cell problems name the column, the value and why', () => {
  const amount = column('number', { key: 'amount', label: 'Amount' });

  it('a number column refusing a text says which column, which value and why', () => {
    const { problems } = validateCells([amount], { amount: 'EUR 87.40x' }, { partial: false, maxCellChars: 100 });
    expect(problems).toEqual([{ column: 'amount', reason: 'wrong_type', value: 'EUR 87.40x', message: 'Column “Amount” (amount, number): “EUR 87.40x” is not a number.' }]);
  });

  it('an ambiguous number gives both readings and how to write it', () => {
    const { problems } = validateCells([amount], { amount: '1,234' }, { partial: false, maxCellChars: 100 });
    expect(problems[0]).toMatchObject({ column: 'amount', reason: 'ambiguous_number', value: '1,234' });
    expect(problems[0]!.message).toContain('“1,234” is ambiguous (1234 or 1.234)');
  });

  it('quotes at most 40 characters of a value, on one line', () => {
    const long = `line one\nline two ${'x'.repeat(500)}`;
    const [problem] = validateCells([column('email', { key: 'to', label: 'To' })], { to: long }, { partial: false, maxCellChars: 1_000 }).problems;
    expect(problem!.value).toHaveLength(40);
    expect(problem!.value).toMatch(/^line one line two x+…$/);
    expect(problem!.message).toBe(`Column “To” (to, email): “${problem!.value}” is not an email address.`);
  });

  it('names a missing required column, an unknown column and the options of a select', () => {
    const columns = [column('text', { key: 'name', label: 'Name', required: true }), column('select', { key: 'plan', label: 'Plan', options: ['free', 'pro'] })];
    const { problems } = validateCells(columns, { plan: 'gold', nope: 1 }, { partial: false, maxCellChars: 100 });
    expect(problems.map((problem) => problem.message)).toEqual([
      'Column “Plan” (plan, select): “gold” is not one of its options (free, pro).',
      'The table has no column “nope”.',
      'Column “Name” (name, text) is required: it needs a value.',
    ]);
  });
});

describe('convertCell (column type changes)', () => {
  it.each([
    ['text', 42, { value: '42' }],
    ['text', true, { value: 'true' }],
    ['number', '42', { value: 42 }],
    ['number', 'forty-two', { reason: 'wrong_type' }],
    ['boolean', 'yes', { value: true }],
    ['email', 'ada@example.com', { value: 'ada@example.com' }],
    ['email', 'ada', { reason: 'invalid_email' }],
    ['datetime', '2026-01-02', { value: '2026-01-02T00:00:00.000Z' }],
    ['date', '2026-01-02T23:30:00.000Z', { value: '2026-01-02' }],
    ['date', 'soon', { reason: 'invalid_date' }],
  ] as const)('to %s: %j → %j', (type, value, expected) => {
    expect(convertCell(column(type), value, 100)).toEqual(expected);
  });

  it('keeps select values only when they are among the new options', () => {
    expect(convertCell(column('select', { options: ['a'] }), 'a', 100)).toEqual({ value: 'a' });
    expect(convertCell(column('select', { options: ['a'] }), 'b', 100)).toEqual({ reason: 'not_an_option' });
  });
});

describe('hardening 8: email cells are checked in linear time on at most 254 characters', () => {
  const email = column('email', { key: 'email' });
  const quadratic = `a@${'.'.repeat(9996)}@`;

  it.each([
    ['a@b.co', true],
    ['first.last+tag@sub.example.org', true],
    [`${'a'.repeat(242)}@example.com`, true],
    [`${'a'.repeat(243)}@example.com`, false],
    [`${'a'.repeat(300)}@example.com`, false],
    ['a@b', false],
    ['a@.b', false],
    ['a@b.', false],
    ['@b.co', false],
    ['a@@b.co', false],
    ['a b@c.de', false],
    ['a@b\u00a0c.de', false],
    [quadratic, false],
    [`a@${'.'.repeat(253)}`, false],
    [`a@${'.'.repeat(252)}`, true],
  ])('%j is an address: %s', (text, valid) => {
    expect(isEmailAddress(text)).toBe(valid);
    expect(normaliseCell(email, text, 10_000)).toEqual(valid ? { value: text } : { reason: 'invalid_email' });
  });

  it('refuses 300 cells of the pathological value with invalid_email each', () => {
    for (let index = 0; index < 300; index += 1) expect(normaliseCell(email, quadratic, 10_000)).toEqual({ reason: 'invalid_email' });
  });
});
