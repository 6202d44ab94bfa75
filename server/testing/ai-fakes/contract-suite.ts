/**
 * The contract every provider meets against its fake vendor (one test file per provider calls this):
 * text, streamed deltas, a tool call, structured output checked by zod, usage, 429 → rate_limited with
 * the wait, 500 → transient, 401 → auth with the key nowhere in the error, a slow answer → timeout,
 * the model listing, and what was sent the vendor's way (key header, model, tools, schema).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callModel } from '../../core/ai/call-model';
import { AiCallError } from '../../core/ai/errors';
import { listModels } from '../../core/ai/list-models';
import { testEndpoint } from '../../core/ai/test-endpoint';
import type { AiNetOptions, AiProvider, CallModelInput } from '../../core/ai/types';
import type { FakeVendorServer, RecordedAiRequest } from './fake-vendor-server';
import { fakeEndpoint, fakeKindOf, fakeNet, startFakeVendor } from './index';

export interface ProviderContract {
  provider: AiProvider;
  model: string;
  /** The path a generate call reaches, streamed or not. */
  generatePath: (stream: boolean) => RegExp;
  /** How the key travels: the header's value for `key` (null: the provider sends none). */
  keyHeader: { name: string; value: (key: string) => string } | null;
  /** The tools the request declared: name, description and the JSON schema of the input. */
  toolsOf: (body: any) => { name: string; description: string; schema: any }[];
  /** The JSON schema the request asked the answer to follow. */
  outputSchemaOf: (body: any) => any;
  /** The system prompt as the request carried it. */
  systemOf: (body: any) => string | undefined;
  /** Reasoning tokens are reported by this wire format. */
  reportsReasoning: boolean;
  /** The vendor has a content filter finish. */
  hasContentFilter: boolean;
  /** Names the fake lists and those listModels answers. */
  listing: { served: string[]; expected: string[] };
  net?: AiNetOptions;
}

const secretKey = 'sk-contract-SECRET-4f9d2c7e1a';

export function describeProviderContract(contract: ProviderContract): void {
  const { provider, model } = contract;
  const net = contract.net ?? fakeNet;
  let vendor: FakeVendorServer;

  const call = <T = unknown>(input: Partial<CallModelInput<T>> = {}) =>
    callModel<T>({
      endpoint: fakeEndpoint(provider, vendor, provider === 'ai_local' ? null : secretKey),
      model,
      messages: [{ role: 'user', content: 'Which folder should this invoice go to?' }],
      signal: AbortSignal.timeout(10_000),
      net,
      ...input,
    });

  const failure = async (promise: Promise<unknown>): Promise<AiCallError> => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AiCallError);
    return error as AiCallError;
  };

  const generateRequests = (): RecordedAiRequest[] => vendor.requests.filter((request) => request.method === 'POST');

  describe(`${provider} contract (${fakeKindOf[provider]} wire format)`, () => {
    beforeAll(async () => {
      vendor = await startFakeVendor(fakeKindOf[provider]);
    });
    afterAll(async () => {
      await vendor.close();
    });
    beforeEach(() => {
      vendor.reset();
    });

    it('answers text, with the model, the finish reason and usage mapped', async () => {
      vendor.reply({ kind: 'text', text: 'Put it in Invoices.', usage: { input: 31, output: 9 } });
      const result = await call({ system: 'You sort mail.' });
      expect(result).toMatchObject({ text: 'Put it in Invoices.', finishReason: 'stop', toolCalls: [], model });
      expect(result.usage).toMatchObject({ inputTokens: 31, outputTokens: 9 });
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
      expect(result.object).toBeUndefined();

      const [request] = generateRequests();
      expect(request.path).toMatch(contract.generatePath(false));
      expect(request.stream).toBe(false);
      expect(request.path.includes(model) || request.body.model === model).toBe(true);
      expect(contract.systemOf(request.body)).toBe('You sort mail.');
      if (contract.keyHeader) expect(request.headers[contract.keyHeader.name]).toBe(contract.keyHeader.value(secretKey));
      // The key travels in its header only: never in the URL.
      expect(request.query.toString()).not.toContain(secretKey);
    });

    it('streams text deltas that assemble into the answer', async () => {
      vendor.reply({ kind: 'text', text: 'Streamed: file under Invoices, then archive.', usage: { input: 20, output: 11 } });
      const deltas: string[] = [];
      const result = await call({ onDelta: (delta) => deltas.push(delta) });
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe('Streamed: file under Invoices, then archive.');
      expect(result).toMatchObject({ text: 'Streamed: file under Invoices, then archive.', finishReason: 'stop' });
      expect(result.usage).toMatchObject({ inputTokens: 20, outputTokens: 11 });
      const [request] = generateRequests();
      expect(request.stream).toBe(true);
      expect(request.path).toMatch(contract.generatePath(true));
    });

    const tools = {
      move_to_folder: {
        description: 'Move the message to a folder.',
        input: z.object({ folder: z.string().describe('Name of the destination folder'), archive: z.boolean() }),
      },
    };

    it('declares tools with their zod descriptions and returns the model’s tool call', async () => {
      vendor.reply({ kind: 'tool', name: 'move_to_folder', input: { folder: 'Invoices', archive: true } });
      const result = await call({ tools });
      expect(result.finishReason).toBe('tool-calls');
      expect(result.toolCalls).toEqual([{ id: expect.any(String), name: 'move_to_folder', input: { folder: 'Invoices', archive: true } }]);
      const declared = contract.toolsOf(generateRequests()[0].body);
      expect(declared).toHaveLength(1);
      expect(declared[0]).toMatchObject({ name: 'move_to_folder', description: 'Move the message to a folder.' });
      expect(declared[0].schema.properties.folder).toMatchObject({ type: 'string', description: 'Name of the destination folder' });
    });

    it('returns a streamed tool call', async () => {
      vendor.reply({ kind: 'tool', name: 'move_to_folder', input: { folder: 'Receipts', archive: false } });
      const result = await call({ tools, onDelta: () => {} });
      expect(result.finishReason).toBe('tool-calls');
      expect(result.toolCalls).toMatchObject([{ name: 'move_to_folder', input: { folder: 'Receipts', archive: false } }]);
    });

    const invoice = z.object({ vendor: z.string(), total: z.number(), currency: z.enum(['EUR', 'USD']) });

    it('asks structured output with the schema and validates the answer with zod', async () => {
      vendor.reply({ kind: 'json', value: { vendor: 'ACME', total: 129.5, currency: 'EUR' } });
      const result = await call({ output: invoice });
      expect(result.object).toEqual({ vendor: 'ACME', total: 129.5, currency: 'EUR' });
      const schema = contract.outputSchemaOf(generateRequests()[0].body);
      expect(schema).toMatchObject({ type: 'object', properties: { vendor: { type: 'string' }, total: { type: 'number' } } });
      expect(schema.required).toEqual(expect.arrayContaining(['vendor', 'total', 'currency']));
    });

    it('streams structured output and validates it', async () => {
      vendor.reply({ kind: 'json', value: { vendor: 'Initech', total: 12, currency: 'USD' } });
      const result = await call({ output: invoice, onDelta: () => {} });
      expect(result.object).toEqual({ vendor: 'Initech', total: 12, currency: 'USD' });
    });

    it('refuses an answer that does not match the schema (invalid_output, temporary)', async () => {
      vendor.reply({ kind: 'json', value: { vendor: 'ACME', total: 'a lot', currency: 'GBP' } });
      const error = await failure(call({ output: invoice }));
      expect(error).toMatchObject({ kind: 'invalid_output', code: 'invalid_output' });
    });

    it('maps usage, reasoning tokens included when the wire format reports them', async () => {
      vendor.reply({ kind: 'text', text: 'Thought about it.', usage: { input: 40, output: 25, reasoning: 15 } });
      const result = await call();
      expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 25, reasoningTokens: contract.reportsReasoning ? 15 : null });
    });

    it('turns 429 into rate_limited with the wait from Retry-After', async () => {
      vendor.reply({ kind: 'rate_limit', retryAfter: '7' });
      const error = await failure(call());
      expect(error).toMatchObject({ kind: 'rate_limited', code: 'rate_limited', status: 429, retryAfterMs: 7000, provider });
      expect(generateRequests()).toHaveLength(1); // no retry inside the layer
    });

    it('turns a 429 on a stream into rate_limited too', async () => {
      vendor.reply({ kind: 'rate_limit', retryAfter: '2' });
      const error = await failure(call({ onDelta: () => {} }));
      expect(error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 2000 });
    });

    it('turns 500 into a transient failure, once', async () => {
      vendor.reply({ kind: 'error', status: 500, message: 'The server had an error while processing your request.' });
      const error = await failure(call());
      expect(error).toMatchObject({ kind: 'transient', code: 'server_error', status: 500 });
      expect(generateRequests()).toHaveLength(1);
    });

    it('turns 401 into auth, and the key appears nowhere in the error', async () => {
      vendor.reply({ kind: 'error', status: 401, echoKey: true }, { kind: 'error', status: 401, echoKey: true });
      for (const error of [await failure(call()), await failure(call({ onDelta: () => {} }))]) {
        expect(error).toMatchObject({ kind: 'auth', code: 'auth', status: 401 });
        const everything = [error.message, JSON.stringify(error), String(error), error.stack ?? '', JSON.stringify(Object.getOwnPropertyDescriptors(error))].join('\n');
        expect(everything).not.toContain(secretKey);
        expect(everything).not.toContain('SECRET');
        expect((error as { cause?: unknown }).cause).toBeUndefined();
      }
    });

    it('turns an unknown model (404) into bad_request', async () => {
      vendor.reply({ kind: 'error', status: 404, message: 'The model does not exist.' });
      const error = await failure(call());
      expect(error).toMatchObject({ kind: 'bad_request', code: 'model_not_found', status: 404 });
    });

    it('turns 400 into bad_request', async () => {
      vendor.reply({ kind: 'error', status: 400, message: 'Invalid schema for response_format.' });
      const error = await failure(call({ output: invoice }));
      expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    });

    it('times out a slow answer through the signal (transient)', async () => {
      vendor.reply({ kind: 'slow', delayMs: 20_000 });
      const error = await failure(call({ signal: AbortSignal.timeout(200) }));
      expect(error).toMatchObject({ kind: 'transient', code: 'timeout' });
    });

    it('times out a slow stream through the signal (transient)', async () => {
      vendor.reply({ kind: 'slow', delayMs: 20_000 });
      const error = await failure(call({ signal: AbortSignal.timeout(200), onDelta: () => {} }));
      expect(error).toMatchObject({ kind: 'transient', code: 'timeout' });
    });

    it('reports a cancellation that is not a timeout as aborted', async () => {
      vendor.reply({ kind: 'slow', delayMs: 20_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const error = await failure(call({ signal: controller.signal }));
      expect(error).toMatchObject({ kind: 'transient', code: 'aborted' });
    });

    if (contract.hasContentFilter) {
      it('turns the vendor’s content filter into refused', async () => {
        vendor.reply({ kind: 'refusal' }, { kind: 'refusal' });
        expect(await failure(call())).toMatchObject({ kind: 'refused', code: 'content_filter' });
        expect(await failure(call({ onDelta: () => {} }))).toMatchObject({ kind: 'refused', code: 'content_filter' });
      });
    }

    it('lists the models (and whether tools are supported) through the vendor’s listing', async () => {
      vendor.models = contract.listing.served;
      const list = await listModels(fakeEndpoint(provider, vendor, provider === 'ai_local' ? null : secretKey), AbortSignal.timeout(5000), net);
      expect(list).toEqual({ models: contract.listing.expected, supportsTools: true });
      const [request] = vendor.requests;
      expect(request.method).toBe('GET');
      if (contract.keyHeader) expect(request.headers[contract.keyHeader.name]).toBe(contract.keyHeader.value(secretKey));
    });

    it('tests the endpoint: ok, then a refused key classified without the key', async () => {
      vendor.models = contract.listing.served;
      const endpoint = fakeEndpoint(provider, vendor, provider === 'ai_local' ? null : secretKey);
      expect(await testEndpoint(endpoint, { net })).toMatchObject({ ok: true, modelCount: contract.listing.expected.length });
      vendor.replyToListing({ kind: 'error', status: 401, echoKey: true });
      const refused = await testEndpoint(endpoint, { net });
      expect(refused).toMatchObject({ ok: false, kind: 'auth', code: 'auth', status: 401 });
      expect(JSON.stringify(refused)).not.toContain(secretKey);
    });

    it('tests the endpoint: a 429 on the listing is rate_limited, a slow listing times out', async () => {
      const endpoint = fakeEndpoint(provider, vendor, provider === 'ai_local' ? null : secretKey);
      vendor.replyToListing({ kind: 'rate_limit', retryAfter: '3' }, { kind: 'slow', delayMs: 20_000 });
      expect(await testEndpoint(endpoint, { net })).toMatchObject({ ok: false, kind: 'rate_limited', retryAfterMs: 3000 });
      expect(await testEndpoint(endpoint, { net, timeoutMs: 200 })).toMatchObject({ ok: false, kind: 'transient', code: 'timeout' });
    });
  });
}
