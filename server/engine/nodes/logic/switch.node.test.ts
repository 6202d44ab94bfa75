import { describe, expect, it } from 'vitest';
import { outputsOf } from '../../contract/define-node';
import { runNode } from '../testing';
import { switchNode } from './switch.node.ts';

const params = {
  cases: [
    { name: 'urgent', conditions: [{ left: '{{ x }}', operator: 'contains', right: 'urgent' }] },
    { name: 'invoice', conditions: [{ left: 'invoice 1', operator: 'starts_with', right: 'invoice' }] },
  ],
};

describe('logic.switch', () => {
  it('has one output per case plus fallback', () => {
    expect(outputsOf(switchNode, switchNode.params.parse(params))).toEqual(['urgent', 'invoice', 'fallback']);
    expect(outputsOf(switchNode, { cases: '{{ input.cases }}' })).toEqual(['fallback']);
  });

  it.each([
    ['urgent!', 'urgent'],
    ['calm', 'invoice'],
  ])('left %s takes %s', async (left, output) => {
    const result = await runNode(switchNode, { params: { cases: [{ ...params.cases[0], conditions: [{ left, operator: 'contains', right: 'urgent' }] }, params.cases[1]] } });
    expect(result).toMatchObject({ output });
  });

  it('takes fallback when no case matches', async () => {
    const result = await runNode(switchNode, { params: { cases: [{ name: 'a', conditions: [{ left: 1, operator: 'equals', right: 2 }] }] } });
    expect(result).toMatchObject({ output: 'fallback' });
  });

  it.each([[[{ name: 'fallback', conditions: [{ left: 1, operator: 'equals', right: 1 }] }]], [[...params.cases, params.cases[0]]]])('refuses bad case names', (cases) => {
    expect(switchNode.params.safeParse({ cases }).success).toBe(false);
  });
});
