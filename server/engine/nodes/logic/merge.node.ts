/**
 * Merge: waits for both inputs `a` and `b` (the engine runs a node once all its inputs' upstream
 * steps are done), then outputs `{a, b}`, or in `append` mode one list of both lists' items.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

function asList(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object' && Object.hasOwn(value, 'items') && Array.isArray((value as { items: unknown }).items)) return (value as { items: unknown[] }).items;
  return [value];
}

export const mergeNode = defineNode({
  type: 'logic.merge',
  version: 1,
  category: 'logic',
  label: { en: 'Merge', fr: 'Fusionner' },
  description: {
    en: 'Waits for both inputs, then outputs them together ({a, b}) or as one list (append).',
    fr: 'Attend les deux entrées, puis les transmet ensemble ({a, b}) ou en une seule liste (ajout).',
  },
  params: z.strictObject({
    mode: z.enum(['object', 'append']).default('object').describe('`object`: output {a, b}; `append`: output {items} with the items of a then b.'),
  }),
  inputs: ['a', 'b'],
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  async execute({ params, input }) {
    const a = input.a ?? null;
    const b = input.b ?? null;
    if (params.mode === 'append') {
      const items = [...asList(a), ...asList(b)];
      return { data: { items } };
    }
    return { data: { a, b } };
  },
});
