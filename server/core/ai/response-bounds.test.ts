/**
 * AI vendor answers are read bounded on the bytes read (issue 18, item 6): an oversized completion,
 * streamed or not, fails `response_too_large` (permanent); an error body that never ends is cut, and
 * the failure is classified by its status. Against the local fake vendors (real HTTP on loopback).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeEndpoint, fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { callModel } from './call-model';
import { AiCallError, failureFamily } from './errors';
import { listModels } from './list-models';
import { testEndpoint } from './test-endpoint';

let openai: FakeVendorServer;
let anthropic: FakeVendorServer;

beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startFakeVendor('openai'), startFakeVendor('anthropic')]);
});
afterAll(async () => {
  await Promise.all([openai?.close(), anthropic?.close()]);
});
beforeEach(() => {
  openai.reset();
  anthropic.reset();
});

/** Above the transport's 16 MiB bound (./transport.ts aiResponseBounds). */
const oversized = 20 * 1024 * 1024;

async function failureOf(promise: Promise<unknown>): Promise<AiCallError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AiCallError);
    return error as AiCallError;
  }
  throw new Error('the call succeeded');
}

describe('AI response bounded', () => {
  it.each([
    ['a completion', false],
    ['a streamed completion', true],
  ])('AI response bounded: %s larger than the bound fails response_too_large, a permanent failure', async (_what, streamed) => {
    for (const [provider, vendor] of [['ai_vendor_a', openai], ['ai_vendor_b', anthropic]] as const) {
      vendor.reply({ kind: 'huge', bytes: oversized });
      const error = await failureOf(
        callModel({
          endpoint: fakeEndpoint(provider, vendor),
          model: 'any-model',
          messages: [{ role: 'user', content: 'Hello' }],
          signal: AbortSignal.timeout(60_000),
          net: fakeNet,
          ...(streamed ? { onDelta: () => {} } : {}),
        }),
      );
      expect(error).toMatchObject({ code: 'response_too_large', provider });
      expect(failureFamily(error)).toBe('permanent');
      expect(JSON.stringify(error)).not.toContain('aaaa');
    }
  });

  it('AI response bounded: a model listing whose error body never ends is cut and classified by its status', async () => {
    openai.replyToListing({ kind: 'drip', status: 500 });
    const error = await failureOf(listModels(fakeEndpoint('ai_vendor_a', openai), AbortSignal.timeout(30_000), fakeNet));
    expect(error).toMatchObject({ code: 'server_error', status: 500 });
    anthropic.replyToListing({ kind: 'drip', status: 401 });
    expect(await testEndpoint(fakeEndpoint('ai_vendor_b', anthropic), { net: fakeNet, timeoutMs: 30_000 })).toMatchObject({ ok: false, code: 'auth', status: 401 });
  });

  it('AI response bounded: a completion whose error body never ends is cut and classified by its status', async () => {
    openai.reply({ kind: 'drip', status: 503 });
    const error = await failureOf(callModel({ endpoint: fakeEndpoint('ai_vendor_a', openai), model: 'm', messages: [{ role: 'user', content: 'Hi' }], signal: AbortSignal.timeout(30_000), net: fakeNet }));
    expect(error).toMatchObject({ code: 'server_error', status: 503 });
  });

  it('an answer within the bound is read whole', async () => {
    openai.reply({ kind: 'text', text: 'b'.repeat(200_000) });
    const result = await callModel({ endpoint: fakeEndpoint('ai_vendor_a', openai), model: 'm', messages: [{ role: 'user', content: 'Hi' }], signal: AbortSignal.timeout(30_000), net: fakeNet });
    expect(result.text).toHaveLength(200_000);
  });
});
