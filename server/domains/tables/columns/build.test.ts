import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../core/errors/app-error';
import { buildColumns } from './build';
import { columnInput } from '../schemas';

const limits = { maxColumns: 5 };
const inputs = (...raw: unknown[]) => raw.map((item) => columnInput.parse(item));

function errorOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected an error');
}

describe('buildColumns', () => {
  it('fills the spec’s defaults and derives keys from labels', () => {
    expect(buildColumns(inputs({ label: 'E-mail' }), limits)).toEqual([
      { key: 'e_mail', label: 'E-mail', type: 'text', isKey: false, required: false, options: [], width: null, description: null },
    ]);
  });

  it('makes derived keys unique without touching explicit ones', () => {
    const columns = buildColumns(inputs({ label: 'Name' }, { label: 'Name' }, { key: 'name_2', label: 'Other' }), limits);
    expect(columns.map((column) => column.key)).toEqual(['name', 'name_3', 'name_2']);
  });

  it('refuses two explicit columns with one key: tables.duplicate_column', () => {
    const error = errorOf(() => buildColumns(inputs({ key: 'email', label: 'A' }, { key: 'email', label: 'B' }), limits));
    expect(error.code).toBe('tables.duplicate_column');
    expect(error.details).toEqual({ key: 'email' });
  });

  it('refuses more columns than the instance allows: tables.limit_reached with details.limit', () => {
    const error = errorOf(() => buildColumns(inputs(...Array.from({ length: 6 }, (_, i) => ({ label: `c${i}` }))), limits));
    expect(error.code).toBe('tables.limit_reached');
    expect(error.details.limit).toBe('maxColumns');
  });

  it.each([
    ['two key columns', [{ label: 'a', isKey: true }, { label: 'b', isKey: true }], 'more_than_one_key_column'],
    ['a select without options', [{ label: 'status', type: 'select' }], 'select_without_options'],
    ['duplicate options', [{ label: 'status', type: 'select', options: ['a', 'a'] }], 'duplicate_options'],
  ])('refuses %s with 400', (_name, raw, reason) => {
    const error = errorOf(() => buildColumns(inputs(...raw), limits));
    expect(error.code).toBe('request.bad_request');
    expect(error.details.reason).toBe(reason);
  });

  it('keeps options only for select columns', () => {
    expect(buildColumns(inputs({ label: 'n', type: 'number', options: ['x'] }), limits)[0].options).toEqual([]);
  });
});
