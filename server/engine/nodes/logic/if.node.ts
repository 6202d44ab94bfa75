/**
 * If: takes the `true` or the `false` output depending on its conditions; passes its input on.
 * Version 1 compares text respecting case unless told otherwise; version 2 (if-v2.node.ts) ignores
 * case unless told otherwise (conditions.ts says why).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { caseSensitiveSchema, combineSchema, conditionsSchema, testConditions } from './conditions';

export function defineIfNode(version: 1 | 2) {
  return defineNode({
    type: 'logic.if',
    version,
    category: 'logic',
    label: { en: 'If', fr: 'Si' },
    description: {
      en: 'Continues on the “true” or the “false” output depending on conditions (all or any must hold).',
      fr: 'Continue par la sortie « vrai » ou « faux » selon des conditions (toutes ou au moins une).',
    },
    params: z.strictObject({ conditions: conditionsSchema, combine: combineSchema, caseSensitive: caseSensitiveSchema(version === 1) }),
    outputs: ['true', 'false'],
    effect: 'none',
    requires: [],
    scopes: [],
    async execute({ params, input }) {
      const passed = testConditions(params.conditions, params.combine, 'params.conditions', { caseSensitive: params.caseSensitive });
      return { output: passed ? 'true' : 'false', data: input.main ?? {} };
    },
  });
}

export const ifNode = defineIfNode(1);
