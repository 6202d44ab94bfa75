import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { assertStorableText, findUnstorableText } from './storable-text';

describe('hardening (fuzzed surface): text PostgreSQL cannot store is refused before it reaches a query', () => {
  it.each([
    ['a plain string', 'hello', null],
    ['accents and emoji (well-formed surrogate pairs)', { name: 'Éloïse 👋' }, null],
    ['numbers, booleans and null', { a: 1, b: true, c: null }, null],
    ['a NUL in a value', { name: 'a\u0000b' }, ['name']],
    ['a lone high surrogate', { cells: { label: 'x\ud800' } }, ['cells', 'label']],
    ['a lone low surrogate in a list', { rows: ['ok', '\udfffy'] }, ['rows', '1']],
    ['a NUL in a key', { 'k\u0000': 1 }, ['k\ufffd']],
    ['a NUL at the top', '\u0000', []],
  ] as const)('%s', (_name, input, expected) => {
    expect(findUnstorableText(input)).toEqual(expected);
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let nested: unknown = 'bad\u0000';
    for (let depth = 0; depth < 100_000; depth += 1) nested = [nested];
    expect(findUnstorableText(nested)).toHaveLength(100_000);
  });

  it('answers 400 request.bad_request naming the path', () => {
    let thrown: unknown;
    try {
      assertStorableText({ name: 'a\u0000' }, 'body');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).status).toBe(400);
    expect((thrown as AppError).details).toMatchObject({ in: 'body', issues: [{ path: 'name', code: 'unstorable_text' }] });
  });
});
