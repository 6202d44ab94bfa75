/**
 * The REST procedures' route table and their call, in place of trpc-to-openapi's node handler on the request path
 * (issue 25 §2). That handler, on every request, scanned every route's regular expression, rebuilt the input schema
 * of a procedure without input (a fresh `z.object({})`), walked the schema again for coercion, and built a caller
 * proxy to reach the procedure. Here what depends only on the route is worked out once: the route list per method
 * (in the same order, first match wins, as there), the match of a path without parameters (kept), and each
 * procedure's input facts. The request then does what the handler did, in the same order and with the same
 * results (its source: trpc-to-openapi/dist/esm/adapters/node-http/core.mjs, 3.3.0):
 *
 * - the path is matched case-insensitively against `^…$` with `[^/]+` for each `{param}`, the parameters raw;
 * - input: none when the input schema is void-like; else `{...body}` (POST, PUT, PATCH) or `{...query}` (GET,
 *   DELETE; the first value of a key given once, every value of a repeated one, a lone value of an array field
 *   wrapped), then the path parameters over it; number, boolean, bigint and date fields of an object schema are
 *   made coercing (once per route, at its first request, as trpc-to-openapi did at every request);
 * - the procedure is called as `createCaller(ctx)` calls it (its middlewares run as tRPC runs them, see
 *   runMiddlewares); its data answered as JSON with the route's status.
 *
 * The OpenAPI document is still trpc-to-openapi's (server/openapi): only the request path is ours.
 */
import { TRPCError } from '@trpc/server';
import { getTRPCErrorFromUnknown, isObject, middlewareMarker } from '@trpc/server/unstable-core-do-not-import';
import { coerceSchema, getInputOutputParsers, instanceofZodTypeLikeVoid, instanceofZodTypeObject, instanceofZodTypeOptional, unwrapZodType } from 'trpc-to-openapi';
import { ZodArray } from 'zod/v4';
import type { RequestContext } from '../trpc/context';
import type { RouteMeta } from '../trpc/meta';

interface ProcedureCall {
  path: string;
  type: 'query' | 'mutation';
  ctx: RequestContext;
  getRawInput: () => Promise<unknown>;
  signal: undefined;
  batchIndex: number;
}

/** What a middleware of a procedure answers (tRPC's MiddlewareResult, as its callRecursive reads it). */
type MiddlewareResult = { ok: true; data: unknown } | { ok: false; error: TRPCError };

interface MiddlewareOptions extends ProcedureCall {
  input?: unknown;
}

type Middleware = ((options: MiddlewareOptions & { meta?: RouteMeta; next: (next?: Partial<MiddlewareOptions>) => Promise<MiddlewareResult> }) => Promise<MiddlewareResult>) & {
  /** tRPC marks the middlewares it makes of `.input()` and `.output()` (`'input'`, `'output'`). */
  _type?: string;
};

interface ProcedureDef {
  type: 'query' | 'mutation' | 'subscription';
  meta?: RouteMeta;
  inputs: unknown[];
  output?: unknown;
  /** Ours (procedures.ts), then the input and output parsers, then the resolver: tRPC runs them in this order. */
  middlewares: Middleware[];
}

type CallableProcedure = ((call: ProcedureCall) => Promise<unknown>) & { _def: ProcedureDef };

export interface RestRouter {
  _def: { procedures: object };
}

interface InputFacts {
  /** The input schema is void-like: the procedure gets no input at all. */
  none: boolean;
  /** The object schema to make coercing at the first request (null: not an object schema). */
  coercible: { shape: Record<string, unknown> } | null;
  /** Fields whose schema is an array (or an optional one): a lone query value becomes a one-item array. */
  arrayKeys: string[];
}

interface RestRoute {
  procedurePath: string;
  procedure: CallableProcedure;
  /** The procedure's middlewares as the dispatcher runs them (validatingMiddlewaresOf). */
  middlewares: Middleware[];
  type: 'query' | 'mutation';
  pattern: RegExp;
  hasParams: boolean;
  successStatus: number;
  input: InputFacts | null;
  coerced: boolean;
}

export interface RestMatch {
  route: RestRoute;
  params: Record<string, string>;
}

const normalizePath = (path: string) => `/${path.replace(/^\/|\/$/g, '')}`;

function patternOf(path: string): RegExp {
  return new RegExp(`^${path.replace(/\{(.+?)\}/g, (_, key: string) => `(?<${key}>[^/]+)`)}$`, 'i');
}

function inputFactsOf(procedure: CallableProcedure): InputFacts {
  const { inputParser } = getInputOutputParsers(procedure as never) as { inputParser: unknown };
  const unwrapped = unwrapZodType(inputParser as never, true) as unknown as { shape?: Record<string, unknown> };
  if (instanceofZodTypeLikeVoid(unwrapped as never)) return { none: true, coercible: null, arrayKeys: [] };
  if (!instanceofZodTypeObject(unwrapped as never)) return { none: false, coercible: null, arrayKeys: [] };
  const shape = unwrapped.shape ?? {};
  const arrayKeys = Object.keys(shape).filter((key) => {
    const field = shape[key] as { unwrap?: () => unknown };
    if (field instanceof ZodArray) return true;
    return instanceofZodTypeOptional(field as never) && field.unwrap?.() instanceof ZodArray;
  });
  return { none: false, coercible: { shape }, arrayKeys };
}

/** A zod schema, as far as the dispatcher's validation reads it. */
interface ZodLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
  parseAsync(value: unknown): Promise<unknown>;
}

function isZodLike(schema: unknown): schema is ZodLike {
  return typeof schema === 'object' && schema !== null && typeof (schema as ZodLike).safeParse === 'function' && typeof (schema as ZodLike).parseAsync === 'function';
}

/**
 * Parses as tRPC's validation does (zod's `parseAsync`: the same value, the same ZodError), but synchronously when
 * the schema allows it: zod's asynchronous parse costs a chain of promises per field, which was a twentieth of the web
 * process's time on `GET /api/v1/auth/me` under load (issue 25 §2). A schema with an asynchronous refinement or
 * transform makes the synchronous parse throw (zod's $ZodAsyncError, or worse); it is then parsed again as tRPC did,
 * which is what zod's own Standard Schema `validate` does (our schemas' transforms are pure, so a part parsed twice
 * changes nothing).
 */
function parseWith(schema: ZodLike, value: unknown): unknown {
  let result: ReturnType<ZodLike['safeParse']>;
  try {
    result = schema.safeParse(value);
  } catch {
    return schema.parseAsync(value);
  }
  if (result.success) return result.data;
  throw result.error;
}

/** tRPC's input middleware (createInputMiddleware, @trpc/server 11) with parseWith: the same errors and merge. */
function inputValidator(schema: ZodLike): Middleware {
  return async (options) => {
    let parsed: unknown;
    try {
      parsed = await parseWith(schema, await options.getRawInput());
    } catch (cause) {
      throw new TRPCError({ code: 'BAD_REQUEST', cause: cause as Error });
    }
    // Several `.input()` objects are merged, the later over the earlier, as tRPC merges them.
    return options.next({ input: isObject(options.input) && isObject(parsed) ? { ...options.input, ...parsed } : parsed });
  };
}

/** tRPC's output middleware (createOutputMiddleware, @trpc/server 11) with parseWith: the same error. */
function outputValidator(schema: ZodLike): Middleware {
  return async (options) => {
    const result = await options.next();
    if (!result.ok) return result;
    try {
      return { ...result, data: await parseWith(schema, result.data) };
    } catch (cause) {
      throw new TRPCError({ message: 'Output validation failed', code: 'INTERNAL_SERVER_ERROR', cause: cause as Error });
    }
  };
}

/**
 * The procedure's middlewares with tRPC's input and output validators replaced by the same validation through
 * parseWith. Each `.input()` adds one input middleware, in the order of `inputs`; `.output()` one output middleware
 * and the schema in `output`. Anything else (a count that does not match, a schema that is not zod's) keeps tRPC's own.
 */
function validatingMiddlewaresOf(def: ProcedureDef): Middleware[] {
  const inputSteps = def.middlewares.filter((middleware) => middleware._type === 'input');
  const outputSteps = def.middlewares.filter((middleware) => middleware._type === 'output');
  const inputsReplaceable = inputSteps.length === def.inputs.length && def.inputs.every(isZodLike);
  const outputReplaceable = outputSteps.length === 1 && isZodLike(def.output);
  let inputIndex = 0;
  return def.middlewares.map((middleware) => {
    if (middleware._type === 'input') {
      const schema = def.inputs[inputIndex++];
      return inputsReplaceable ? inputValidator(schema as ZodLike) : middleware;
    }
    if (middleware._type === 'output' && outputReplaceable) return outputValidator(def.output as ZodLike);
    return middleware;
  });
}

/** Most paths without parameters remembered; a path with parameters (an id) is matched each time instead. */
const maxRememberedPaths = 2_000;

export class RestRouteTable {
  private readonly byMethod = new Map<string, RestRoute[]>();
  private readonly remembered = new Map<string, RestMatch>();

  constructor(router: RestRouter) {
    for (const [procedurePath, value] of Object.entries(router._def.procedures as Record<string, CallableProcedure>)) {
      const meta = value._def.meta;
      const openapi = meta?.openapi;
      if (!openapi || openapi.enabled === false || value._def.type === 'subscription') continue;
      const path = normalizePath(openapi.path);
      const routes = this.byMethod.get(openapi.method) ?? [];
      routes.push({
        procedurePath,
        procedure: value,
        middlewares: validatingMiddlewaresOf(value._def),
        type: value._def.type,
        pattern: patternOf(path),
        hasParams: /\{.+?\}/.test(path),
        successStatus: meta?.route?.status ?? 200,
        input: null,
        coerced: false,
      });
      this.byMethod.set(openapi.method, routes);
    }
  }

  /** The first route of the method whose pattern matches, with its path parameters; null when none does. */
  match(method: string, pathname: string): RestMatch | null {
    const path = normalizePath(pathname);
    // Matching ignores case, so one entry per route whatever case a client writes (no churn from case variants).
    const key = `${method} ${path.toLowerCase()}`;
    const known = this.remembered.get(key);
    if (known) return known;
    for (const route of this.byMethod.get(method) ?? []) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const match = { route, params: { ...found.groups } };
      if (!route.hasParams) {
        if (this.remembered.size >= maxRememberedPaths) this.remembered.clear();
        this.remembered.set(key, match);
      }
      return match;
    }
    return null;
  }
}

/** Input as trpc-to-openapi built it (see the module's comment); undefined for a procedure without input. */
function inputOf(route: RestRoute, method: string, body: unknown, query: Record<string, string[]>, params: Record<string, string>): unknown {
  const facts = (route.input ??= inputFactsOf(route.procedure));
  if (facts.none) return undefined;
  const usesBody = method !== 'GET' && method !== 'DELETE';
  const input: Record<string, unknown> = { ...(usesBody ? (body as object) : queryInputOf(query)), ...params };
  if (facts.coercible) {
    if (!usesBody) {
      for (const key of facts.arrayKeys) if (input[key] !== undefined && !Array.isArray(input[key])) input[key] = [input[key]];
    }
    if (!route.coerced) {
      coerceSchema(facts.coercible as never);
      route.coerced = true;
    }
  }
  return input;
}

function queryInputOf(query: Record<string, string[]>): Record<string, string | string[]> {
  const input: Record<string, string | string[]> = {};
  for (const key of Object.keys(query)) {
    const values = query[key];
    input[key] = values.length === 1 ? values[0] : values;
  }
  return input;
}

/** What trpc-to-openapi handed its error hook: a TRPCError, anything else wrapped as an internal one. */
export function procedureErrorOf(cause: unknown): TRPCError {
  if (cause instanceof Error && cause.name === 'TRPCError') return cause as TRPCError;
  const error = new TRPCError({ message: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', cause: cause instanceof Error ? cause : undefined });
  if (cause instanceof Error && cause.stack) error.stack = cause.stack;
  return error;
}

export interface RestCall {
  method: string;
  match: RestMatch;
  ctx: RequestContext;
  body: unknown;
  query: Record<string, string[]>;
}

/** Calls the matched procedure; answers its data and the success status (a procedure's own `answer` first). */
export async function callRestProcedure({ method, match, ctx, body, query }: RestCall): Promise<{ status: number; data: unknown }> {
  const { route, params } = match;
  const input = inputOf(route, method, body, query, params);
  const result = await runMiddlewares(route.middlewares, route.procedure._def.meta, 0, {
    path: route.procedurePath,
    type: route.type,
    ctx,
    // A method, not an arrow: tsx names every arrow it keeps in a property, one defineProperty per request.
    async getRawInput() {
      return input;
    },
    signal: undefined,
    batchIndex: 0,
  });
  if (!result) throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'No result from middlewares - did you forget to `return next()`?' });
  if (!result.ok) throw result.error;
  return { status: ctx.answer.successStatus ?? route.successStatus, data: result.data };
}

/**
 * Calls a procedure as tRPC's own caller does (its `callRecursive`, @trpc/server 11): each middleware gets the call's
 * options with the procedure's meta and a `next` that merges the context, input and raw input it is handed; a throw
 * becomes a failed result. The same options, order and results, but the options are copied with the language's
 * object spread: tRPC's build copies them through a helper four times per middleware, eight middlewares a call, which
 * took 11 % of the web process's busy time under load (bench/README.md, issue 25 §2).
 */
async function runMiddlewares(middlewares: Middleware[], meta: RouteMeta | undefined, index: number, options: MiddlewareOptions): Promise<MiddlewareResult> {
  try {
    return await middlewares[index]({
      ...options,
      meta,
      input: options.input,
      // A method, not an arrow: tsx names every arrow it keeps in a property, one defineProperty per middleware.
      next(next) {
        return runMiddlewares(middlewares, meta, index + 1, {
          ...options,
          ctx: next?.ctx ? { ...options.ctx, ...next.ctx } : options.ctx,
          input: next && 'input' in next ? next.input : options.input,
          getRawInput: next?.getRawInput ?? options.getRawInput,
        });
      },
    });
  } catch (cause) {
    return { ok: false, error: getTRPCErrorFromUnknown(cause), marker: middlewareMarker } as MiddlewareResult;
  }
}
