import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { filterNode } from './filter.node.ts';
import { filterNodeV2 } from './filter-v2.node.ts';

const items = [{ subject: 'YOUR INVOICE' }, { subject: 'Invoice 2' }, { subject: 'lunch?' }];
const conditions = [{ left: '$item.subject', operator: 'contains', right: 'invoice' }];

describe('logic.filter@2', () => {
  it('text comparisons ignore case by default', async () => {
    expect(await runNode(filterNodeV2, { params: { items, conditions } })).toMatchObject({ data: { count: 2, dropped: 1 } });
  });

  it('the case-sensitive option respects case', async () => {
    expect(await runNode(filterNodeV2, { params: { items, conditions, caseSensitive: true } })).toMatchObject({ data: { count: 0, dropped: 3 } });
  });

  it('version 1 keeps comparing text with its case', async () => {
    expect(await runNode(filterNode, { params: { items, conditions } })).toMatchObject({ data: { count: 0, dropped: 3 } });
  });
});
