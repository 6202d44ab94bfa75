/**
 * The REST dispatcher calls a procedure's middlewares itself (runMiddlewares in rest-dispatch.ts) rather than through
 * tRPC's caller: whatever a procedure does, the dispatcher's answer is the one tRPC's own caller gives, success or
 * failure. A tRPC upgrade that changes how middlewares are called fails here first.
 */
import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { RequestContext } from '../trpc/context';
import type { RouteMeta } from '../trpc/meta';
import { callRestProcedure, RestRouteTable } from './rest-dispatch';

const t = initTRPC.context<RequestContext & { trail?: string[] }>().meta<RouteMeta>().create();
const get = (path: string) => ({ openapi: { method: 'GET', path } }) as RouteMeta;

const tracing = t.middleware(({ ctx, next }) => next({ ctx: { trail: [...(ctx.trail ?? []), 'first'] } }));
const second = t.middleware(({ ctx, next }) => next({ ctx: { trail: [...(ctx.trail ?? []), 'second'] } }));
const base = t.procedure.use(tracing).use(second);

const spiedOutput = z.object({ word: z.string() });

const router = t.router({
  spied: base
    .meta(get('/spied'))
    .output(spiedOutput)
    .query(() => ({ word: 'seen' })),
  echo: base
    .meta(get('/echo'))
    .input(z.object({ word: z.string() }))
    .output(z.object({ word: z.string(), trail: z.array(z.string()) }))
    .query(({ input, ctx }) => ({ word: input.word, trail: ctx.trail ?? [] })),
  rewritten: base
    .use(({ next }) => next({ getRawInput: async () => ({ word: 'replaced' }) }))
    .meta(get('/rewritten'))
    .input(z.object({ word: z.string() }))
    .query(({ input }) => input.word),
  refused: base.meta(get('/refused')).query(() => {
    throw new TRPCError({ code: 'FORBIDDEN', message: 'no' });
  }),
  crashed: base.meta(get('/crashed')).query(() => {
    throw new Error('unexpected');
  }),
  badOutput: base
    .meta(get('/bad-output'))
    .output(z.object({ count: z.number() }))
    .query(() => ({ count: 'three' }) as unknown as { count: number }),
  forgotNext: t.procedure.use((() => undefined) as never).meta(get('/forgot-next')).query(() => 'never'),
  // The dispatcher parses synchronously where zod can (parseWith): these need zod's asynchronous parse.
  asyncChecks: base
    .meta(get('/async-checks'))
    .input(z.object({ word: z.string().refine(async (word) => word !== 'forbidden', 'refused word') }))
    .output(z.object({ word: z.string().transform(async (word) => word.toUpperCase()) }))
    .query(({ input }) => ({ word: input.word })),
  asyncOutputRefused: base
    .meta(get('/async-output-refused'))
    .output(z.object({ count: z.number().refine(async (count) => count < 10) }))
    .query(() => ({ count: 12 })),
  // Two `.input()` objects are merged; the output transformed (a date answered as text).
  merged: base
    .meta(get('/merged'))
    .input(z.object({ word: z.string() }))
    .input(z.object({ times: z.coerce.number().int().default(1) }))
    .output(z.object({ words: z.string(), at: z.date().transform((date) => date.toISOString()) }))
    .query(({ input }) => ({ words: input.word.repeat(input.times), at: new Date(0) })),
});

function context(): RequestContext {
  return { transport: 'rest', method: 'GET', headers: new Headers(), ip: null, secure: false, local: false, actor: { kind: 'anonymous' }, responseHeaders: new Headers(), answer: {} };
}

const table = new RestRouteTable(router);

async function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; code: string; message: string; cause?: string }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    const failure = error as TRPCError;
    return { ok: false, code: failure.code, message: failure.message, cause: failure.cause?.message };
  }
}

async function bothWays(path: string, procedure: keyof typeof router._def.procedures, query: Record<string, string[]> = {}) {
  const match = table.match('GET', path);
  if (!match) throw new Error(`no route ${path}`);
  const dispatched = await settle(callRestProcedure({ method: 'GET', match, ctx: context(), body: undefined, query }).then((answer) => answer.data));
  const input = Object.fromEntries(Object.entries(query).map(([key, [value]]) => [key, value]));
  const caller = router.createCaller(context()) as unknown as Record<string, (input: unknown) => Promise<unknown>>;
  const called = await settle(caller[procedure](input));
  return { dispatched, called };
}

describe('the dispatcher answers what tRPC’s own caller answers', () => {
  it('context handed on through every middleware, input validated, output checked', async () => {
    const { dispatched, called } = await bothWays('/echo', 'echo', { word: ['hello'] });
    expect(dispatched).toEqual({ ok: true, value: { word: 'hello', trail: ['first', 'second'] } });
    expect(dispatched).toEqual(called);
  });

  it('a raw input a middleware replaces', async () => {
    const { dispatched, called } = await bothWays('/rewritten', 'rewritten', { word: ['original'] });
    expect(dispatched).toEqual({ ok: true, value: 'replaced' });
    expect(dispatched).toEqual(called);
  });

  it('failures: a TRPCError as thrown, anything else as an internal error with its cause, an invalid input or output', async () => {
    for (const [path, procedure, code] of [
      ['/refused', 'refused', 'FORBIDDEN'],
      ['/crashed', 'crashed', 'INTERNAL_SERVER_ERROR'],
      ['/bad-output', 'badOutput', 'INTERNAL_SERVER_ERROR'],
      ['/forgot-next', 'forgotNext', 'INTERNAL_SERVER_ERROR'],
    ] as const) {
      const { dispatched, called } = await bothWays(path, procedure);
      expect(dispatched.ok, path).toBe(false);
      expect(dispatched, path).toMatchObject({ code });
      expect(dispatched, path).toEqual(called);
    }
    const missingInput = await bothWays('/echo', 'echo');
    expect(missingInput.dispatched).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(missingInput.dispatched).toEqual(missingInput.called);
  });

  it('asynchronous refinements and transforms, in the input and the output, as zod’s asynchronous parse answers them', async () => {
    const accepted = await bothWays('/async-checks', 'asyncChecks', { word: ['hello'] });
    expect(accepted.dispatched).toEqual({ ok: true, value: { word: 'HELLO' } });
    expect(accepted.dispatched).toEqual(accepted.called);
    const refusedInput = await bothWays('/async-checks', 'asyncChecks', { word: ['forbidden'] });
    expect(refusedInput.dispatched).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
    expect(refusedInput.dispatched.ok === false && refusedInput.dispatched.cause).toContain('refused word');
    expect(refusedInput.dispatched).toEqual(refusedInput.called);
    const refusedOutput = await bothWays('/async-output-refused', 'asyncOutputRefused');
    expect(refusedOutput.dispatched).toMatchObject({ ok: false, code: 'INTERNAL_SERVER_ERROR', message: 'Output validation failed' });
    expect(refusedOutput.dispatched).toEqual(refusedOutput.called);
  });

  it('a zod schema is parsed synchronously by the dispatcher (tRPC’s own validator would call parseAsync)', async () => {
    const safeParse = vi.spyOn(spiedOutput, 'safeParse');
    const parseAsync = vi.spyOn(spiedOutput, 'parseAsync');
    const match = table.match('GET', '/spied');
    if (!match) throw new Error('no route /spied');
    const answer = await callRestProcedure({ method: 'GET', match, ctx: context(), body: undefined, query: {} });
    expect(answer.data).toEqual({ word: 'seen' });
    expect(safeParse).toHaveBeenCalledTimes(1);
    expect(parseAsync).not.toHaveBeenCalled();
  });

  it('several inputs merged, the later over the earlier, and an output transformed', async () => {
    const { dispatched, called } = await bothWays('/merged', 'merged', { word: ['ab'], times: ['3'] });
    expect(dispatched).toEqual({ ok: true, value: { words: 'ababab', at: '1970-01-01T00:00:00.000Z' } });
    expect(dispatched).toEqual(called);
  });
});
