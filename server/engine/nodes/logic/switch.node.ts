/**
 * Switch: the first case whose conditions hold names the output taken; none → `fallback`.
 * Version 1 compares text respecting case unless told otherwise; version 2 (switch-v2.node.ts)
 * ignores case unless told otherwise (conditions.ts says why).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { caseSensitiveSchema, combineSchema, conditionsSchema, testConditions } from './conditions';

const caseName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_-]*$/, 'Lower-case letters, digits, `_` and `-`.')
  .refine((name) => name !== 'fallback', '`fallback` is the output taken when no case matches.')
  .describe('The case’s output name (1-64: a-z, 0-9, `_`, `-`; not `fallback`).');

export function defineSwitchNode(version: 1 | 2) {
  return defineNode({
    type: 'logic.switch',
    version,
    category: 'logic',
    label: { en: 'Switch', fr: 'Aiguillage' },
    description: {
      en: 'Continues on the output of the first case whose conditions hold, or on “fallback”.',
      fr: 'Continue par la sortie du premier cas dont les conditions sont remplies, sinon par « fallback ».',
    },
    params: z.strictObject({
      cases: z
        .array(z.strictObject({ name: caseName, conditions: conditionsSchema, combine: combineSchema }))
        .min(1)
        .max(20)
        .refine((cases) => new Set(cases.map((entry) => entry.name)).size === cases.length, 'Case names must differ.')
        .describe('The cases, tried in order (1-20, distinct names).'),
      caseSensitive: caseSensitiveSchema(version === 1),
    }),
    outputs: (params) => [...(Array.isArray(params?.cases) ? params.cases : []).map((entry) => entry.name), 'fallback'],
    effect: 'none',
    requires: [],
    scopes: [],
    async execute({ params, input }) {
      const index = params.cases.findIndex((entry, at) =>
        testConditions(entry.conditions, entry.combine, `params.cases[${at}].conditions`, { caseSensitive: params.caseSensitive }),
      );
      return { output: index === -1 ? 'fallback' : params.cases[index].name, data: input.main ?? {} };
    },
  });
}

export const switchNode = defineSwitchNode(1);
