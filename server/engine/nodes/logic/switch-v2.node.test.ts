import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { switchNode } from './switch.node.ts';
import { switchNodeV2 } from './switch-v2.node.ts';

const cases = [
  { name: 'urgent', conditions: [{ left: '{{ x }}', operator: 'contains', right: 'urgent' }] },
  { name: 'invoice', conditions: [{ left: 'INVOICE 1', operator: 'starts_with', right: 'invoice' }] },
];

describe('logic.switch@2', () => {
  it('text comparisons ignore case by default', async () => {
    expect(await runNode(switchNodeV2, { params: { cases } })).toMatchObject({ output: 'invoice' });
  });

  it('the case-sensitive option respects case', async () => {
    expect(await runNode(switchNodeV2, { params: { cases, caseSensitive: true } })).toMatchObject({ output: 'fallback' });
  });

  it('version 1 keeps comparing text with its case', async () => {
    expect(await runNode(switchNode, { params: { cases } })).toMatchObject({ output: 'fallback' });
  });
});
