/**
 * Filter: keeps the items of a list for which the conditions hold. In conditions, `{{ $item }}`…
 * is not available (expressions resolve before the run): a condition's `left` or `right` that is the
 * text `$item` or starts with `$item.` reads the item (or one of its fields by dot path).
 */
import { z } from 'zod';
import { defineNode } from '../define-node';
import { combineSchema, conditionsSchema, testConditions, type Condition } from './conditions';

export const maxFilterItems = 10_000;

function readItem(item: unknown, reference: unknown): unknown {
  if (typeof reference !== 'string') return reference;
  if (reference === '$item') return item;
  if (!reference.startsWith('$item.')) return reference;
  let current: unknown = item;
  for (const part of reference.slice('$item.'.length).split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export const filterNode = defineNode({
  type: 'logic.filter',
  version: 1,
  category: 'logic',
  label: { en: 'Filter', fr: 'Filtrer' },
  description: {
    en: 'Keeps the items of a list that meet the conditions (`$item` or `$item.field` reads each item).',
    fr: 'Garde les éléments d’une liste qui remplissent les conditions (`$item` ou `$item.champ` lit chaque élément).',
  },
  params: z.strictObject({
    items: z.array(z.unknown()).max(maxFilterItems).describe('The list to filter (at most 10,000 items), usually an expression.'),
    conditions: conditionsSchema,
    combine: combineSchema,
  }),
  outputs: ['main'],
  effect: 'none',
  scopes: [],
  async execute({ params }) {
    const items = params.items.filter((item) => {
      const conditions = params.conditions.map((condition): Condition => ({
        ...condition,
        left: readItem(item, condition.left),
        right: readItem(item, condition.right),
      }));
      return testConditions(conditions, params.combine);
    });
    return { data: { items, count: items.length, dropped: params.items.length - items.length } };
  },
});
