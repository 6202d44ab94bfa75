/**
 * Set fields: writes values at dot paths (`customer.name`) into a copy of the input, or into a new
 * object. A `__proto__`, `constructor` or `prototype` path segment is refused; keys are own data.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

const forbiddenSegments = new Set(['__proto__', 'constructor', 'prototype']);

const fieldPath = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^.]+(\.[^.]+)*$/, 'A dot path: names separated by dots.')
  .refine((path) => path.split('.').every((segment) => !forbiddenSegments.has(segment)), '`__proto__`, `constructor` and `prototype` are not field names.')
  .describe('Where to write: a field name or a dot path (`customer.name`), 1-200 characters.');

function clone(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  let current = target;
  for (const segment of segments.slice(0, -1)) {
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (next === null || typeof next !== 'object' || Array.isArray(next)) {
      const created: Record<string, unknown> = {};
      setOwn(current, segment, created);
      current = created;
    } else {
      current = next as Record<string, unknown>;
    }
  }
  setOwn(current, segments[segments.length - 1], value);
}

export const setNode = defineNode({
  type: 'data.set',
  version: 1,
  category: 'data',
  label: { en: 'Set fields', fr: 'Définir des champs' },
  description: {
    en: 'Sets fields (by name or dot path) to fixed values or expressions, on a copy of the input or on a new object.',
    fr: 'Donne à des champs (nom ou chemin à points) des valeurs fixes ou des expressions, sur une copie de l’entrée ou sur un nouvel objet.',
  },
  params: z.strictObject({
    fields: z
      .array(z.strictObject({ name: fieldPath, value: z.unknown().describe('The value: fixed, or an expression such as `{{ trigger.subject }}`.') }))
      .max(100)
      .describe('The fields to set, in order (at most 100).'),
    keepInput: z.boolean().default(true).describe('Start from a copy of the input (true) or from an empty object (false).'),
  }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  async execute({ params, input }) {
    const base = params.keepInput ? clone(input.main) : undefined;
    const out: Record<string, unknown> = base !== null && typeof base === 'object' && !Array.isArray(base) ? (base as Record<string, unknown>) : {};
    for (const field of params.fields) setPath(out, field.name, clone(field.value) ?? null);
    return { data: out };
  },
});
