import { describe, expect, it } from 'vitest';
import { runNode } from '../testing';
import { filterNode } from './filter.node';

const items = [
  { name: 'a', total: 10 },
  { name: 'b', total: 50 },
  { name: 'c', total: 99 },
];

describe('logic.filter', () => {
  it.each([
    [{ left: '$item.total', operator: 'gt', right: 20 }, ['b', 'c']],
    [{ left: '$item.name', operator: 'equals', right: 'a' }, ['a']],
    [{ left: '$item.missing', operator: 'is_empty' }, ['a', 'b', 'c']],
    [{ left: '$item.__proto__', operator: 'is_not_empty' }, []],
  ])('%j keeps %j', async (condition, names) => {
    const result = await runNode(filterNode, { params: { items, conditions: [condition] } });
    expect(result).toMatchObject({ data: { items: names.map((name) => expect.objectContaining({ name })), count: names.length } });
  });

  it('compares plain items with $item', async () => {
    const result = await runNode(filterNode, { params: { items: [1, 5, 9], conditions: [{ left: '$item', operator: 'gte', right: 5 }] } });
    expect(result).toEqual({ data: { items: [5, 9], count: 2, dropped: 1 } });
  });

  it('refuses more than 10,000 items', () => {
    expect(filterNode.params.safeParse({ items: new Array(10_001).fill(1), conditions: [{ left: 1, operator: 'equals', right: 1 }] }).success).toBe(false);
  });
});
