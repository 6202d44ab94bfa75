/**
 * Malformed variants of a valid value, derived from its schema: wrong types, missing and extra
 * fields, strings and arrays beyond their bounds (just beyond and far beyond), numbers out of range,
 * fractional, huge or not finite, NaN-like and control-character strings, lone surrogates, unknown
 * enum values, bad ids, prototype names as keys and as values, deep nesting. Each variant names its
 * family, so the report can group failures by cause.
 */
import type { Rng } from './prng';
import { kindOf, mainVariant, randomUuid, variantsOf, type Schema, type SchemaContext } from './schema';
import { JsonString, objectOf, RawJson, withValueAt, WorldRef, type Pointer } from './values';
import { prototypeNames } from '../prototype-names';

export type Family =
  | 'wrong-type'
  | 'missing'
  | 'extra-field'
  | 'proto-key'
  | 'proto-value'
  | 'empty'
  | 'oversize'
  | 'far-oversize'
  | 'number-edge'
  | 'nan-like'
  | 'control-chars'
  | 'unicode'
  | 'injection'
  | 'enum'
  | 'format'
  | 'bad-id'
  | 'bad-cursor'
  | 'deep-nesting'
  | 'many-entries'
  | 'backtracking';

export interface Mutation {
  family: Family;
  label: string;
  pointer: Pointer;
  value?: unknown;
  remove?: boolean;
}

export { prototypeNames };

/** Shared long strings: built once, so the fuzz's own memory stays flat. */
const megabyte = 'x'.repeat(1_000_000);
const longStrings = new Map<number, string>();
export function longString(length: number): string {
  if (length === megabyte.length) return megabyte;
  let text = longStrings.get(length);
  if (!text) {
    text = 'y'.repeat(length);
    if (longStrings.size < 64) longStrings.set(length, text);
  }
  return text;
}

export function deepArrayText(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

export function deepObjectText(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

const nanLike = ['NaN', 'Infinity', '-Infinity', 'undefined', 'null', 'true', '1e400', '-0', '0x1F', '1_000', ' 1 ', '١٢٣'];
const controlStrings = ['\u0000', 'a\u0000b', '\u0007\u0008\u001b[2J', 'line\r\nbreak', '\t\u000b\u000c', '\u007f\u0085'];
const unicodeStrings = ['\ud800', 'x\udfffy', '\ufeffbom', '\u202eevil', 'e\u0301', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\uffff\ufffe'];
const manyLines = 'a\n'.repeat(100_000);
/** Inputs on which a pattern with nested or overlapping repetition takes quadratic time or worse. */
const backtrackingStrings = [`a@${'.'.repeat(9_990)}@`, `${'a'.repeat(5_000)}!`, `${'1'.repeat(5_000)}x`, `${'-'.repeat(5_000)}a`];
/** `${7*7}{{7*7}}`, written so that no linter takes it for a template literal written by mistake. */
const templateProbe = ['$', '{7*7}{{7*7}}'].join('');
const injectionStrings = ["'; DROP TABLE members;--", '../../../etc/passwd', '%00', '<img src=x onerror=alert(1)>', templateProbe, '=HYPERLINK("http://x","y")', '*', '%', '_', '\\'];

function stringValues(schema: Schema, base: unknown, rng: Rng): { family: Family; label: string; value: unknown }[] {
  const out: { family: Family; label: string; value: unknown }[] = [];
  const max: number | undefined = schema.maxLength;
  const min: number = schema.minLength ?? 0;
  if (min > 0) out.push({ family: 'empty', label: 'empty string', value: '' });
  out.push({ family: 'empty', label: 'blank string', value: ' '.repeat(Math.max(min, 1)) });
  if (max !== undefined) {
    out.push({ family: 'oversize', label: `maxLength+1 (${max + 1})`, value: longString(max + 1) });
    out.push({ family: 'oversize', label: `maxLength+1 in astral characters`, value: '😀'.repeat(Math.floor(max / 2) + 1) });
    out.push({ family: 'far-oversize', label: `maxLength×100 (${max * 100})`, value: longString(Math.min(max * 100 + 1, 2_000_000)) });
  }
  out.push({ family: 'far-oversize', label: '1,000,000 characters', value: megabyte });
  for (const text of rng.sample(nanLike, 4)) out.push({ family: 'nan-like', label: `NaN-like ${JSON.stringify(text)}`, value: text });
  for (const text of rng.sample(controlStrings, 3)) out.push({ family: 'control-chars', label: `control characters ${JSON.stringify(text)}`, value: text });
  for (const text of rng.sample(unicodeStrings, 3)) out.push({ family: 'unicode', label: `unicode ${JSON.stringify(text)}`, value: text });
  for (const text of rng.sample(injectionStrings, 2)) out.push({ family: 'injection', label: `metacharacters ${JSON.stringify(text)}`, value: text });
  const alwaysNames = ['__proto__', 'constructor', 'prototype', 'toString'];
  const protoValues = [...alwaysNames, ...rng.sample(prototypeNames.filter((name) => !alwaysNames.includes(name)), 2)];
  for (const name of protoValues) out.push({ family: 'proto-value', label: `prototype name ${name} as value`, value: name });
  out.push({ family: 'many-entries', label: '100,000 short lines', value: manyLines });
  const slow = rng.pick(backtrackingStrings);
  out.push({ family: 'backtracking', label: `input that makes careless patterns backtrack (${slow.slice(0, 12)}…, ${slow.length} chars)`, value: slow });
  if (Array.isArray(schema.enum)) {
    out.push({ family: 'enum', label: 'unknown enum value', value: 'zz_unknown' });
    out.push({ family: 'enum', label: 'enum value in upper case', value: String(schema.enum[0]).toUpperCase() });
    out.push({ family: 'enum', label: 'enum value with a trailing space', value: `${schema.enum[0]} ` });
  }
  if (schema.format === 'uuid' || /uuid/i.test(String(schema.pattern ?? ''))) {
    out.push({ family: 'bad-id', label: 'not a uuid', value: 'not-a-uuid' });
    out.push({ family: 'bad-id', label: 'random uuid', value: randomUuid(rng) });
    out.push({ family: 'bad-id', label: 'nil uuid', value: '00000000-0000-0000-0000-000000000000' });
    out.push({ family: 'bad-id', label: 'uuid in braces', value: `{${randomUuid(rng)}}` });
  }
  if (schema.format === 'date-time' || schema.format === 'date') {
    for (const text of ['2024-13-45T25:61:61Z', '2024-02-30T00:00:00Z', '+275760-09-13T00:00:00.000Z', '0000-01-01T00:00:00Z', 'yesterday', '1e10']) {
      out.push({ family: 'format', label: `bad date ${text}`, value: text });
    }
  }
  if (base instanceof WorldRef) {
    out.push({ family: 'format', label: `${base.name} in upper case`, value: new WorldRef(base.name, (value) => String(value).toUpperCase()) });
    out.push({ family: 'format', label: `${base.name} with a trailing space`, value: new WorldRef(base.name, (value) => `${value} `) });
    out.push({ family: 'format', label: `${base.name} truncated`, value: new WorldRef(base.name, (value) => String(value).slice(0, -1)) });
  }
  return out;
}

function numberValues(schema: Schema, integer: boolean): { family: Family; label: string; value: unknown }[] {
  const out: { family: Family; label: string; value: unknown }[] = [
    { family: 'number-edge', label: '-1', value: -1 },
    { family: 'number-edge', label: '0', value: 0 },
    { family: 'number-edge', label: '1e308', value: 1e308 },
    { family: 'number-edge', label: '-1e308', value: -1e308 },
    { family: 'number-edge', label: '1e400 (Infinity once parsed)', value: new RawJson('1e400') },
    { family: 'number-edge', label: '-1e400', value: new RawJson('-1e400') },
    { family: 'number-edge', label: '2^53+1', value: new RawJson('9007199254740993') },
    { family: 'number-edge', label: '1e-400 (0 once parsed)', value: new RawJson('1e-400') },
    { family: 'number-edge', label: '-0', value: new RawJson('-0') },
  ];
  if (integer) out.push({ family: 'number-edge', label: 'fraction 1.5', value: 1.5 }, { family: 'number-edge', label: 'fraction 0.0001', value: 0.0001 });
  if (schema.minimum !== undefined) out.push({ family: 'number-edge', label: `minimum-1 (${schema.minimum - 1})`, value: schema.minimum - 1 });
  if (schema.maximum !== undefined) out.push({ family: 'number-edge', label: `maximum+1 (${schema.maximum + 1})`, value: schema.maximum + 1 });
  return out;
}

const wrongTypes: Record<string, unknown[]> = {
  string: [12345, true, null, { a: 1 }, ['a']],
  integer: ['1', 'abc', true, null, [1], {}],
  number: ['1.5', 'abc', false, null, [], {}],
  boolean: ['true', 1, 0, null, 'yes', []],
  object: [[], 'x', 1, null, true],
  array: ['x', { 0: 'a' }, null, 1],
  any: [],
  null: [0, '', {}],
};

function itemSchemaOf(context: SchemaContext, schema: Schema): Schema {
  return mainVariant(context, schema.items ?? {});
}

/**
 * Every mutation of the value at `pointer`, recursing into object properties, map entries and the
 * first item of arrays down to `depth` levels.
 */
export function mutationsOf(context: SchemaContext, rawSchema: Schema, base: unknown, pointer: Pointer, rng: Rng, depth = 4): Mutation[] {
  const variants = variantsOf(context, rawSchema);
  const schema = mainVariant(context, rawSchema);
  const kind = kindOf(schema);
  const out: Mutation[] = [];
  const at = (family: Family, label: string, value: unknown): Mutation => ({ family, label, pointer, value });
  const acceptedKinds = new Set(variants.map(kindOf));
  for (const value of wrongTypes[kind] ?? []) {
    const valueKind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
    if (!acceptedKinds.has(valueKind as never) && !(valueKind === 'integer' && acceptedKinds.has('number'))) {
      out.push(at('wrong-type', `wrong type ${JSON.stringify(value)}`, value));
    }
  }
  switch (kind) {
    case 'string':
      for (const entry of stringValues(schema, base, rng)) out.push(at(entry.family, entry.label, entry.value));
      break;
    case 'integer':
    case 'number':
      for (const entry of numberValues(schema, kind === 'integer')) out.push(at(entry.family, entry.label, entry.value));
      break;
    case 'array':
      out.push(...arrayMutations(context, schema, base, pointer, rng, depth));
      break;
    case 'object':
      out.push(...objectMutations(context, schema, base, pointer, rng, depth));
      break;
    default:
      break;
  }
  if (kind !== 'object' && kind !== 'array') {
    out.push(at('deep-nesting', 'array nested 10,000 deep', new RawJson(deepArrayText(10_000))));
  }
  return out;
}

function arrayMutations(context: SchemaContext, schema: Schema, base: unknown, pointer: Pointer, rng: Rng, depth: number): Mutation[] {
  const out: Mutation[] = [];
  const items = Array.isArray(base) ? base : [];
  const first = items[0];
  const at = (family: Family, label: string, value: unknown): Mutation => ({ family, label, pointer, value });
  if ((schema.minItems ?? 0) > 0) out.push(at('empty', 'empty array', []));
  const max: number | undefined = schema.maxItems;
  if (max !== undefined) out.push(at('oversize', `maxItems+1 (${max + 1})`, Array.from({ length: max + 1 }, (_, index) => items[index % Math.max(items.length, 1)] ?? 'x')));
  const farCount = Math.min(max !== undefined ? max * 100 : 100_000, 200_000);
  const primitive = first === undefined || first === null || typeof first !== 'object' || first instanceof WorldRef ? (first instanceof WorldRef ? 'x' : (first ?? 'x')) : {};
  out.push(at('far-oversize', `${farCount} items`, new Array(farCount).fill(primitive)));
  out.push(at('wrong-type', 'items of the wrong types', [null, 1.5, 'x', true, {}, []]));
  out.push(at('deep-nesting', 'array nested 100,000 deep', new RawJson(deepArrayText(100_000))));
  out.push(at('deep-nesting', 'objects nested 10,000 deep as an item', [new RawJson(deepObjectText(10_000))]));
  if (depth > 0 && items.length > 0) {
    out.push(...mutationsOf(context, itemSchemaOf(context, schema), first, [...pointer, 0], rng, depth - 1));
  }
  return out;
}

function objectMutations(context: SchemaContext, schema: Schema, base: unknown, pointer: Pointer, rng: Rng, depth: number): Mutation[] {
  const out: Mutation[] = [];
  const at = (family: Family, label: string, value: unknown, sub: Pointer = pointer): Mutation => ({ family, label, pointer: sub, value });
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const names = Object.keys(properties);
  const isMap = names.length === 0 && schema.additionalProperties && typeof schema.additionalProperties === 'object';
  out.push(at('empty', 'empty object', {}));
  for (const name of schema.required ?? []) out.push({ family: 'missing', label: `missing required ${name}`, pointer: [...pointer, name], remove: true });
  out.push(at('extra-field', 'unknown extra field', null, [...pointer, 'zz_unexpected']));
  out.push(at('deep-nesting', 'objects nested 10,000 deep as a field', new RawJson(deepObjectText(10_000)), [...pointer, 'zz_deep']));
  // A key named after Object.prototype, with a value of each shape a lookup could trip on.
  const protoValues: unknown[] = isMap ? [mapSampleValue(context, schema, base), null, 'x'] : ['x', { polluted: true }, null, 1];
  const protoNamesHere = isMap || pointer.length === 0 ? prototypeNames : rng.sample(prototypeNames, 4);
  for (const name of protoNamesHere) {
    const value = protoValues[rng.int(0, protoValues.length - 1)];
    out.push(at('proto-key', `prototype name ${name} as a key (value ${JSON.stringify(value instanceof WorldRef ? value.name : value)})`, value, [...pointer, name]));
  }
  if (isMap) {
    const value = mapSampleValue(context, schema, base);
    const keySchema = (schema.propertyNames ?? {}) as Schema;
    out.push(at('empty', 'empty key', value, [...pointer, '']));
    if (keySchema.maxLength !== undefined) out.push(at('oversize', `key of maxLength+1 (${keySchema.maxLength + 1})`, value, [...pointer, longString(keySchema.maxLength + 1)]));
    out.push(at('far-oversize', 'key of 100,000 characters', value, [...pointer, longString(100_000)]));
    out.push(at('control-chars', 'key with control characters', value, [...pointer, 'a\u0000\u001b']));
    out.push(at('unicode', 'key with a lone surrogate', value, [...pointer, 'k\ud800']));
    out.push(at('many-entries', '20,000 entries', objectOf(Array.from({ length: 20_000 }, (_, index) => [`k${index}`, value] as const))));
    if (depth > 0) {
      const entryKey = Object.keys((base as Record<string, unknown>) ?? {})[0];
      if (entryKey !== undefined) {
        out.push(...mutationsOf(context, schema.additionalProperties as Schema, (base as Record<string, unknown>)[entryKey], [...pointer, entryKey], rng, depth - 1));
      }
    }
  }
  if (depth > 0) {
    for (const name of names) {
      const current = base && typeof base === 'object' && Object.hasOwn(base, name) ? (base as Record<string, unknown>)[name] : undefined;
      out.push(...mutationsOf(context, properties[name], current, [...pointer, name], rng, depth - 1));
    }
  }
  return out;
}

function mapSampleValue(context: SchemaContext, schema: Schema, base: unknown): unknown {
  const first = base && typeof base === 'object' ? Object.values(base)[0] : undefined;
  if (first !== undefined && !(first instanceof WorldRef)) return first;
  const valueKind = kindOf(mainVariant(context, schema.additionalProperties as Schema));
  return valueKind === 'number' || valueKind === 'integer' ? 1 : 'x';
}

/** Variants of a JSON value carried inside a string (such as a `filter` parameter), schema inferred from the value. */
export function jsonStringMutations(context: SchemaContext, base: JsonString, rng: Rng): { family: Family; label: string; value: unknown }[] {
  const inferred = inferSchema(base.value);
  const out: { family: Family; label: string; value: unknown }[] = [
    { family: 'format', label: 'not JSON', value: '[{' },
    { family: 'format', label: 'JSON null', value: 'null' },
    { family: 'format', label: 'JSON object instead of array', value: '{}' },
    { family: 'deep-nesting', label: 'JSON nested 10,000 deep', value: deepArrayText(10_000) },
  ];
  for (const mutation of mutationsOf(context, inferred, base.value, [], rng, 3)) {
    out.push({
      family: mutation.family,
      label: `inside the JSON: ${describePointer(mutation.pointer)} ${mutation.label}`,
      value: new JsonString(applyMutation(base.value, mutation)),
    });
  }
  return out;
}

export function inferSchema(value: unknown): Schema {
  if (value instanceof WorldRef || typeof value === 'string') return { type: 'string' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (value === null || value === undefined) return { type: 'null' };
  if (Array.isArray(value)) return { type: 'array', items: value.length ? inferSchema(value[0]) : {} };
  const entries = Object.entries(value as Record<string, unknown>);
  return { type: 'object', properties: Object.fromEntries(entries.map(([key, item]) => [key, inferSchema(item)])), required: entries.map(([key]) => key) };
}


export function applyMutation(base: unknown, mutation: Mutation): unknown {
  return withValueAt(base, mutation.pointer, mutation.value, mutation.remove);
}

export function describePointer(pointer: Pointer): string {
  if (pointer.length === 0) return '(root)';
  return pointer.map((step) => (typeof step === 'number' ? `[${step}]` : `.${step.length > 40 ? `${step.slice(0, 12)}…(${step.length})` : JSON.stringify(step).slice(1, -1)}`)).join('').replace(/^\./, '');
}
