/**
 * trpc-to-openapi makes every boolean, number, bigint and date field of a REST input coercing, by
 * setting `coerce` on the shared zod schemas during a request — request bodies included, and the same
 * schemas then coerce on the tRPC transport too. In a JSON body that turns `"false"` and `{}` into
 * `true` and `"5"` into 5, which can change what a request does (allowing an invalid certificate).
 *
 * Query strings are text, so their numbers need coercion; bodies are JSON and carry real types. Before
 * the handler serves anything, this locks `coerce` off on the scalar fields of every body-taking
 * route's input (the same unwrapping the library does: optional, nullable, default, array, lazy, nested
 * objects), and on every boolean field whatever the method (a query boolean must use `z.stringbool()`:
 * a coerced `"false"` is `true`).
 */
import type { ZodType } from 'zod';

type Def = { type?: string; coerce?: boolean; innerType?: ZodType; element?: ZodType; getter?: () => ZodType; shape?: Record<string, ZodType> };

const coercibleKinds = new Set(['boolean', 'number', 'bigint', 'date']);
const bodyMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function defOf(schema: unknown): Def | null {
  const zod = (schema as { _zod?: { def?: Def } } | null)?._zod;
  return zod?.def ?? null;
}

const locked = new WeakSet<Def>();

function lockCoerceOff(def: Def): void {
  // A schema shared by several routes is met more than once.
  if (locked.has(def)) return;
  locked.add(def);
  Object.defineProperty(def, 'coerce', { get: () => false, set: () => {}, configurable: false, enumerable: true });
}

function walk(schema: unknown, allScalars: boolean, seen: Set<unknown>): void {
  const def = defOf(schema);
  if (!def || seen.has(def)) return;
  seen.add(def);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return walk(def.innerType, allScalars, seen);
    case 'array':
      return walk(def.element, allScalars, seen);
    case 'lazy':
      return walk(def.getter?.(), allScalars, seen);
    case 'object':
      for (const field of Object.values((schema as { shape: Record<string, unknown> }).shape)) walk(field, allScalars, seen);
      return;
    default:
      if (def.type && coercibleKinds.has(def.type) && (allScalars || def.type === 'boolean')) lockCoerceOff(def);
  }
}

type AnyProcedure = { _def: { inputs?: unknown[]; meta?: { openapi?: { method?: string } } } };

export function keepBodyInputsStrict(router: { _def: { procedures: object } }): void {
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const method = procedure._def.meta?.openapi?.method?.toUpperCase();
    if (!method) continue;
    const seen = new Set<unknown>();
    for (const input of procedure._def.inputs ?? []) walk(input, bodyMethods.has(method), seen);
  }
}
