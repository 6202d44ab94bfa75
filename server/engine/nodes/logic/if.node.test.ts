import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { ifNode } from './if.node';
import type { ConditionOperator } from './conditions';

const cases: [ConditionOperator, unknown, unknown, boolean][] = [
  ['equals', 'a', 'a', true],
  ['equals', 3, '3', true],
  ['equals', { a: 1 }, { a: 1 }, true],
  ['not_equals', 'a', 'b', true],
  ['contains', 'invoice 42', '42', true],
  ['contains', ['x', 'y'], 'y', true],
  ['not_contains', 'hello', 'z', true],
  ['starts_with', 'Re: hi', 'Re:', true],
  ['ends_with', 'file.pdf', '.pdf', true],
  ['gt', 5, 3, true],
  ['gt', '10', '9', true],
  ['gte', 3, 3, true],
  ['lt', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z', true],
  ['lte', 4, 3, false],
  ['is_empty', '', undefined, true],
  ['is_empty', [], undefined, true],
  ['is_not_empty', { a: 1 }, undefined, true],
  ['matches_regex', 'Order #123', 'Order #\\d+', true],
  ['matches_regex', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!', '^(a+)+$', false],
];

describe('logic.if', () => {
  it.each(cases)('%s(%j, %j) → %s', async (operator, left, right, expected) => {
    const result = await runNode(ifNode, { params: { conditions: [{ left, operator, right }] }, input: { main: { x: 1 } } });
    expect(result).toEqual({ output: expected ? 'true' : 'false', data: { x: 1 } });
  });

  it('combines with any and all', async () => {
    const conditions = [
      { left: 1, operator: 'equals', right: 1 },
      { left: 1, operator: 'equals', right: 2 },
    ];
    expect(await runNode(ifNode, { params: { conditions, combine: 'any' } })).toMatchObject({ output: 'true' });
    expect(await runNode(ifNode, { params: { conditions, combine: 'all' } })).toMatchObject({ output: 'false' });
  });

  it('refuses a pattern over 200 characters and an unsupported one as invalid_parameter', async () => {
    for (const right of ['a'.repeat(201), '(a)\\1']) {
      await expect(runNode(ifNode, { params: { conditions: [{ left: 'a', operator: 'matches_regex', right }] } })).rejects.toMatchObject({
        code: 'invalid_parameter',
        kind: 'permanent',
      });
    }
  });

  it('matches only within the first 10,000 characters of the subject', async () => {
    const left = `${'x'.repeat(10_000)}needle`;
    expect(await runNode(ifNode, { params: { conditions: [{ left, operator: 'matches_regex', right: 'needle' }] } })).toMatchObject({ output: 'false' });
  });
});
