/**
 * Just enough JSON Schema (as the OpenAPI 3.1 document writes it) for the fuzzer: `$ref` resolution
 * against the document's components, the kind of a schema, its alternatives, and a valid sample.
 * Samples may hold world references (see values.ts), resolved when a request is sent.
 */
import type { Rng } from './prng';

export type Schema = Record<string, any>;

export type Kind = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'any';

export interface SchemaContext {
  /** Resolves `#/components/schemas/X`. */
  resolve(schema: Schema): Schema;
}

export function schemaContext(document: { components?: { schemas?: Record<string, unknown> } }): SchemaContext {
  const components = document.components?.schemas ?? {};
  return {
    resolve(schema) {
      let current = schema ?? {};
      for (let hops = 0; typeof current.$ref === 'string' && hops < 20; hops++) {
        const name = current.$ref.replace('#/components/schemas/', '');
        const target = Object.hasOwn(components, name) ? (components[name] as Schema) : {};
        const { $ref: _ignored, ...rest } = current;
        current = { ...target, ...rest };
      }
      return current;
    },
  };
}

/** The alternatives of a schema (anyOf/oneOf, `type: [..]`), each with a single kind. */
export function variantsOf(context: SchemaContext, schema: Schema): Schema[] {
  const resolved = context.resolve(schema);
  const alternatives = resolved.anyOf ?? resolved.oneOf;
  if (Array.isArray(alternatives)) return alternatives.flatMap((alternative: Schema) => variantsOf(context, alternative));
  if (Array.isArray(resolved.type)) return resolved.type.map((type: string) => ({ ...resolved, type }));
  return [resolved];
}

export function kindOf(schema: Schema): Kind {
  if (schema.const !== undefined) return kindOfValue(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return kindOfValue(schema.enum[0]);
  switch (schema.type) {
    case 'object':
    case 'array':
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return schema.type;
    default:
      if (schema.properties || schema.additionalProperties) return 'object';
      if (schema.items) return 'array';
      return 'any';
  }
}

function kindOfValue(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as Kind;
}

/** The first non-null alternative: the one a sample and the mutations build on. */
export function mainVariant(context: SchemaContext, schema: Schema): Schema {
  const variants = variantsOf(context, schema);
  return variants.find((variant) => kindOf(variant) !== 'null') ?? variants[0];
}

/** Hints give real values (ids of fixtures, column keys) where a schema alone cannot. */
export type Hint = (pointer: readonly (string | number)[], schema: Schema) => unknown;

const patternCandidates = ['a', 'abc', 'a1', 'fuzz', 'fuzz_1', 'fuzz-1', 'A', '1', 'x'];

export function sampleString(schema: Schema, rng: Rng): string {
  if (schema.format === 'uuid') return randomUuid(rng);
  if (schema.format === 'date-time') return '2024-02-29T12:34:56.789Z';
  if (schema.format === 'date') return '2024-02-29';
  if (schema.format === 'email') return 'fuzz@example.test';
  if (schema.format === 'uri') return 'https://example.test/';
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, 8);
  const fits = (value: string) => value.length >= min && value.length <= max && (!schema.pattern || new RegExp(schema.pattern, 'u').test(value));
  for (const candidate of patternCandidates) {
    const padded = candidate.padEnd(Math.max(min, candidate.length), candidate.at(-1));
    if (fits(padded)) return padded;
  }
  return 'a'.repeat(Math.max(min, 1));
}

export function randomUuid(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = ['8', '9', 'a', 'b'][rng.int(0, 3)];
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

function sampleNumber(schema: Schema, integer: boolean): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  let value = min ?? (max !== undefined ? Math.min(max, 1) : 1);
  if (integer) value = Math.ceil(value);
  return value;
}

/** A value the schema accepts (best effort: patterns are met by trying a few shapes). */
export function sampleOf(context: SchemaContext, schema: Schema, rng: Rng, hint: Hint, pointer: (string | number)[] = []): unknown {
  const hinted = hint(pointer, context.resolve(schema));
  if (hinted !== undefined) return hinted;
  const variant = mainVariant(context, schema);
  if (variant.const !== undefined) return variant.const;
  if (Array.isArray(variant.enum) && variant.enum.length) return variant.default !== undefined && variant.enum.includes(variant.default) ? variant.default : variant.enum[0];
  switch (kindOf(variant)) {
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [name, property] of Object.entries((variant.properties ?? {}) as Record<string, Schema>)) {
        result[name] = sampleOf(context, property, rng, hint, [...pointer, name]);
      }
      if (!variant.properties && variant.additionalProperties && typeof variant.additionalProperties === 'object') {
        result.entry = sampleOf(context, variant.additionalProperties, rng, hint, [...pointer, 'entry']);
      }
      return result;
    }
    case 'array': {
      const count = Math.max(variant.minItems ?? 0, 1);
      return Array.from({ length: Math.min(count, variant.maxItems ?? count) }, (_, index) =>
        sampleOf(context, variant.items ?? {}, rng, hint, [...pointer, index]),
      );
    }
    case 'string':
      return sampleString(variant, rng);
    case 'integer':
      return sampleNumber(variant, true);
    case 'number':
      return sampleNumber(variant, false);
    case 'boolean':
      return variant.default ?? true;
    case 'null':
      return null;
    default:
      return 'x';
  }
}
