import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { ifNode } from './if.node.ts';
import { ifNodeV2 } from './if-v2.node.ts';
import type { ConditionOperator } from './conditions';

// Text in capitals, as subjects often are, against a lower-case condition.
const textCases: [ConditionOperator, unknown, unknown][] = [
  ['equals', 'INVOICE', 'invoice'],
  ['contains', 'YOUR INVOICE 42', 'invoice'],
  ['contains', ['Finance', 'URGENT'], 'urgent'],
  ['starts_with', 'RE: Hello', 're:'],
  ['ends_with', 'REPORT.PDF', '.pdf'],
];

describe('logic.if@2', () => {
  it.each(textCases)('text comparisons ignore case by default: %s(%j, %j) holds', async (operator, left, right) => {
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left, operator, right }] } })).toMatchObject({ output: 'true' });
  });

  it('not_equals and not_contains ignore case by default too', async () => {
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left: 'INVOICE', operator: 'not_equals', right: 'invoice' }] } })).toMatchObject({ output: 'false' });
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left: 'AN INVOICE', operator: 'not_contains', right: 'invoice' }] } })).toMatchObject({ output: 'false' });
  });

  it.each(textCases)('the case-sensitive option respects case: %s(%j, %j) does not hold', async (operator, left, right) => {
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left, operator, right }], caseSensitive: true } })).toMatchObject({ output: 'false' });
  });

  it.each(textCases)('version 1 keeps comparing text with its case: %s(%j, %j) does not hold', async (operator, left, right) => {
    expect(await runNode(ifNode, { params: { conditions: [{ left, operator, right }] } })).toMatchObject({ output: 'false' });
  });

  it('leaves numbers, dates and patterns as they were', async () => {
    const conditions = [
      { left: 3, operator: 'equals', right: '3' },
      { left: '10', operator: 'gt', right: '9' },
      { left: 'Order #123', operator: 'matches_regex', right: 'Order #\\d+' },
    ];
    expect(await runNode(ifNodeV2, { params: { conditions } })).toMatchObject({ output: 'true' });
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left: 'ORDER #1', operator: 'matches_regex', right: 'order' }] } })).toMatchObject({ output: 'false' });
    expect(await runNode(ifNodeV2, { params: { conditions: [{ left: 'ORDER #1', operator: 'matches_regex', right: '(?i)order' }] } })).toMatchObject({ output: 'true' });
  });
});
