import { describe, expect, it } from 'vitest';
import { checkMailNode } from './mail-nodes.cases';
import { labelNode } from './label.node';

describe('mail.label', () => {
  it.each([
    [{ add: ['Clients'] }, { action: 'label', labels: { add: ['Clients'], remove: [] } }],
    [{ remove: ['Todo'] }, { action: 'label', labels: { add: [], remove: ['Todo'] } }],
  ])('%j → %j', (params, expected) => checkMailNode(labelNode, params, expected));

  it.each([[{}], [{ add: ['bad\u0000label'] }], [{ add: new Array(21).fill('x') }]])('refuses %j', (params) => {
    expect(labelNode.params.safeParse(params).success).toBe(false);
  });
});
