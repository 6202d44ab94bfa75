/** If: takes the `true` or the `false` output depending on its conditions; passes its input on. */
import { z } from 'zod';
import { defineNode } from '../define-node';
import { combineSchema, conditionsSchema, testConditions } from './conditions';

export const ifNode = defineNode({
  type: 'logic.if',
  version: 1,
  category: 'logic',
  label: { en: 'If', fr: 'Si' },
  description: {
    en: 'Continues on the “true” or the “false” output depending on conditions (all or any must hold).',
    fr: 'Continue par la sortie « vrai » ou « faux » selon des conditions (toutes ou au moins une).',
  },
  params: z.strictObject({ conditions: conditionsSchema, combine: combineSchema }),
  outputs: ['true', 'false'],
  effect: 'none',
  scopes: [],
  async execute({ params, input }) {
    const passed = testConditions(params.conditions, params.combine);
    return { output: passed ? 'true' : 'false', data: input.main ?? {} };
  },
});
