/**
 * Reading the node types' parameter JSON Schemas (zod's `z.toJSONSchema(params, {io: 'input',
 * unrepresentable: 'any'})`, draft 2020-12) for the generated forms: what kind of field a schema
 * asks for, how a union's branches are told apart, what a new value starts as.
 *
 * Why a schema walker of our own rather than @rjsf/core (6.11, looked at for this): a node's every
 * value may be an expression string (`{{ … }}`) whatever its type, e.g. an array param written as
 * `{{ trigger.items }}`; rjsf dispatches fields on the schema type and would have to be told, per
 * field type, to accept a string instead (ArrayField, ObjectField, MultiSchemaField all overridden).
 * rjsf also writes computed defaults into the form data (we must round-trip params exactly: an
 * absent param stays absent, its default is a placeholder), wants an ajv validator for what the
 * server validates anyway, and reports errors by JSON Pointer where the server answers
 * `params.conditions[0].left`. What is left of it after those overrides is the walk below.
 */

import { fieldWords } from '@/server/engine/nodes/readable-issue';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
  description?: string;
  title?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'const' | 'object' | 'record' | 'array' | 'union' | 'null' | 'unknown';

export function asSchema(value: unknown): JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : {};
}

/** `$ref: '#/$defs/Name'` (zod emits them for registered or recursive schemas) resolved against the root. */
export function resolveRef(schema: JsonSchema, root: JsonSchema): JsonSchema {
  let current = schema;
  for (let hops = 0; current.$ref && hops < 16; hops += 1) {
    const match = /^#\/\$defs\/(.+)$/.exec(current.$ref);
    const target = match && root.$defs && Object.hasOwn(root.$defs, match[1]) ? root.$defs[match[1]] : undefined;
    if (!target) return {};
    const { $ref: _ref, ...rest } = current;
    current = { ...target, ...rest };
  }
  return current;
}

function branchesOf(schema: JsonSchema): JsonSchema[] | null {
  const branches = schema.oneOf ?? schema.anyOf;
  return Array.isArray(branches) && branches.length > 0 ? branches.map(asSchema) : null;
}

export function unionBranches(schema: JsonSchema): JsonSchema[] {
  return branchesOf(schema) ?? [];
}

function primaryType(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? schema.type[0];
  return schema.type;
}

export function kindOf(schema: JsonSchema): FieldKind {
  if (branchesOf(schema)) return 'union';
  if (Object.hasOwn(schema, 'const')) return 'const';
  if (Array.isArray(schema.enum)) return 'enum';
  switch (primaryType(schema)) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return 'array';
    case 'object': {
      const extra = schema.additionalProperties;
      if (!schema.properties && extra !== undefined && typeof extra === 'object') return 'record';
      return 'object';
    }
    default:
      return 'unknown';
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The properties of an object branch whose schema is a `const`: what tells union branches apart. */
export function discriminators(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    if (Object.hasOwn(property, 'const')) out[key] = property.const;
  }
  return out;
}

/** Whether `value` has the shape of `schema` at its top (type, const, enum; not the whole validation). */
export function matchesShallow(schema: JsonSchema, value: unknown): boolean {
  switch (kindOf(schema)) {
    case 'const':
      return value === schema.const;
    case 'enum':
      return (schema.enum ?? []).includes(value);
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
    case 'record': {
      if (!isPlainObject(value)) return false;
      return Object.entries(discriminators(schema)).every(([key, constant]) => Object.hasOwn(value, key) && value[key] === constant);
    }
    case 'union':
      return unionBranches(schema).some((branch) => matchesShallow(branch, value));
    case 'unknown':
      return true;
  }
}

/** The branch a value belongs to, or -1 (absent value: the default's branch, else none). */
export function matchBranch(branches: JsonSchema[], value: unknown): number {
  if (value === undefined) return -1;
  const exact = branches.findIndex((branch) => matchesShallow(branch, value));
  if (exact >= 0) return exact;
  // `2.5` offered to an integer branch only, an object missing its discriminator: nearest by type.
  if (typeof value === 'number') return branches.findIndex((branch) => ['number', 'integer'].includes(kindOf(branch)));
  if (isPlainObject(value)) return branches.findIndex((branch) => kindOf(branch) === 'object' || kindOf(branch) === 'record');
  return -1;
}

/** What a newly added value of this schema starts as: required parts filled, optional ones absent. */
export function initialValue(schema: JsonSchema, root: JsonSchema = schema, depth = 0): unknown {
  const resolved = resolveRef(schema, root);
  if (resolved.default !== undefined) return structuredClone(resolved.default);
  if (depth > 16) return null;
  switch (kindOf(resolved)) {
    case 'const':
      return resolved.const;
    case 'enum':
      return resolved.enum?.[0] ?? null;
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return resolved.minimum ?? (resolved.exclusiveMinimum !== undefined ? resolved.exclusiveMinimum + 1 : 0);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array': {
      const count = resolved.minItems ?? 0;
      return Array.from({ length: Math.min(count, 20) }, () => initialValue(asSchema(resolved.items), root, depth + 1));
    }
    case 'record':
      return {};
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of resolved.required ?? []) {
        const property = resolved.properties?.[key];
        if (property) out[key] = initialValue(property, root, depth + 1);
      }
      return out;
    }
    case 'union': {
      const [first] = unionBranches(resolved);
      return first ? initialValue(first, root, depth + 1) : null;
    }
    case 'unknown':
      return '';
  }
}

/** `bodyText` → "Body text", `maxResponseBytes` → "Max response bytes": the words the server's issues use too. */
export const humanize = fieldWords;

/** Body-like text fields get a multi-line editor. */
export function isLongText(name: string | undefined, schema: JsonSchema): boolean {
  if (name && /(body|html|details|text|notes|message|template|content)$/i.test(name)) return true;
  return (schema.maxLength ?? 0) > 100_000;
}

/** A default shown as a placeholder: strings as they are, the rest as JSON. */
export function defaultText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.length === 0) return undefined;
  if (isPlainObject(value) && Object.keys(value).length === 0) return undefined;
  return JSON.stringify(value);
}
