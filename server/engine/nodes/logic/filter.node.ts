/**
 * Filter: keeps the items of a list for which the conditions hold. In conditions, `{{ $item }}`…
 * is not available (expressions resolve before the run): a condition's `left` or `right` that is the
 * text `$item` or starts with `$item.` reads the item (or one of its fields by dot path).
 * Version 1 compares text respecting case unless told otherwise; version 2 (filter-v2.node.ts)
 * ignores case unless told otherwise (conditions.ts says why).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { caseSensitiveSchema, combineSchema, conditionsSchema, testConditions, type Condition } from './conditions';

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

export function defineFilterNode(version: 1 | 2) {
  return defineNode({
    type: 'logic.filter',
    version,
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
      caseSensitive: caseSensitiveSchema(version === 1),
    }),
    outputs: ['main'],
    effect: 'none',
    requires: [],
    scopes: [],
    async execute({ params }) {
      const items = params.items.filter((item) => {
        const conditions = params.conditions.map((condition): Condition => ({
          ...condition,
          left: readItem(item, condition.left),
          right: readItem(item, condition.right),
        }));
        return testConditions(conditions, params.combine, 'params.conditions', { caseSensitive: params.caseSensitive });
      });
      return { data: { items, count: items.length, dropped: params.items.length - items.length } };
    },
  });
}

export const filterNode = defineFilterNode(1);
