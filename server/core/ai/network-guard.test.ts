/**
 * Every AI request goes through the network guard: non-local providers reach public addresses only
 * (metadata, private and loopback base URLs refused before anything is sent, whatever the caller
 * passes), `ai_local` reaches the instance's own network only when allowed, and never metadata.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callModel } from './call-model';
import { AiCallError } from './errors';
import { listModels } from './list-models';
import { testEndpoint } from './test-endpoint';
import { aiProviders, type AiEndpoint, type AiNetOptions, type AiProvider } from './types';
import { fakeEndpoint, fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';

const nonLocal = aiProviders.filter((provider) => provider !== 'ai_local');

async function failure(promise: Promise<unknown>): Promise<AiCallError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AiCallError);
  return error as AiCallError;
}

function call(endpoint: AiEndpoint, net?: AiNetOptions) {
  return callModel({ endpoint, model: 'm', messages: [{ role: 'user', content: 'hi' }], signal: AbortSignal.timeout(5000), net });
}

describe('AI network guard', () => {
  let openai: FakeVendorServer;
  let ollama: FakeVendorServer;
  beforeAll(async () => {
    openai = await startFakeVendor('openai');
    ollama = await startFakeVendor('ollama');
  });
  afterAll(async () => {
    await openai.close();
    await ollama.close();
  });
  beforeEach(() => {
    openai.reset();
    ollama.reset();
  });

  const metadataUrls = ['http://169.254.169.254/v1', 'http://[::ffff:169.254.169.254]/v1', 'http://2852039166/v1', 'http://0251.0376.0251.0376/v1', 'http://100.100.100.200/v1'];

  for (const provider of nonLocal) {
    it(`${provider}: a metadata base URL is refused (blocked) for calls, listings and tests`, async () => {
      for (const baseUrl of metadataUrls) {
        const endpoint: AiEndpoint = { provider, baseUrl, apiKey: 'k-123456' };
        expect(await failure(call(endpoint, { allowPrivate: true }))).toMatchObject({ kind: 'blocked', code: 'blocked_address' });
        expect(await failure(listModels(endpoint, AbortSignal.timeout(5000), { allowPrivate: true }))).toMatchObject({ kind: 'blocked' });
        expect(await testEndpoint(endpoint, { net: { allowPrivate: true } })).toMatchObject({ ok: false, kind: 'blocked' });
      }
    });

    it(`${provider}: private and loopback addresses are refused even when the caller allows private hosts`, async () => {
      for (const baseUrl of ['http://10.0.0.7:8080/v1', 'http://192.168.1.20/v1', 'http://172.16.0.1/v1', 'http://[fd00::1]/v1', 'http://localhost:11434/v1', openai.origin + '/v1']) {
        const endpoint: AiEndpoint = { provider, baseUrl, apiKey: 'k-123456' };
        expect(await failure(call(endpoint, { allowPrivate: true }))).toMatchObject({ kind: 'blocked', code: 'blocked_address' });
      }
      expect(openai.requests).toHaveLength(0);
    });
  }

  it('the tests’ own allowAddress opens exactly the fake’s loopback address, never metadata', async () => {
    await call(fakeEndpoint('ai_vendor_a', openai), fakeNet);
    expect(openai.requests).toHaveLength(1);
    const everything: AiNetOptions = { allowAddress: () => true };
    expect(await failure(call({ provider: 'ai_vendor_a', baseUrl: 'http://169.254.169.254/v1', apiKey: 'k-123456' }, everything))).toMatchObject({ kind: 'blocked' });
  });

  it('ai_local: the instance network only when allowed', async () => {
    const endpoint = fakeEndpoint('ai_local', ollama, null);
    expect(await failure(call(endpoint))).toMatchObject({ kind: 'blocked', code: 'blocked_address' });
    expect(await failure(call(endpoint, { allowPrivate: false }))).toMatchObject({ kind: 'blocked' });
    expect(ollama.requests).toHaveLength(0);
    expect((await call(endpoint, { allowPrivate: true })).text).toBe('Hello from the fake.');
    expect(ollama.requests).toHaveLength(1);
  });

  it('ai_local: metadata stays refused even with private hosts allowed', async () => {
    for (const baseUrl of metadataUrls) {
      expect(await failure(call({ provider: 'ai_local', baseUrl, apiKey: null }, { allowPrivate: true }))).toMatchObject({ kind: 'blocked' });
    }
  });

  it('redirects are not followed (a vendor key header must not travel to another host)', async () => {
    openai.reply({ kind: 'error', status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' }, body: {} });
    const error = await failure(call(fakeEndpoint('ai_vendor_a', openai), fakeNet));
    expect(error.kind).not.toBe('rate_limited');
    expect(error.status).toBe(307);
    expect(openai.requests).toHaveLength(1);
  });

  it('refuses base URLs that are not plain http(s) before any request', async () => {
    for (const baseUrl of ['file:///etc/passwd', 'ftp://example.com/v1', 'http://user:pass@example.com/v1', 'not a url', 'https://example.com/v1#frag']) {
      expect(await failure(call({ provider: 'ai_generic_compatible', baseUrl, apiKey: null }))).toMatchObject({ kind: 'blocked', code: 'invalid_base_url' });
    }
  });

  it('the generic provider needs a base URL; vendors fall back to their public default', async () => {
    expect(await failure(call({ provider: 'ai_generic_compatible', baseUrl: null, apiKey: null }))).toMatchObject({ code: 'invalid_base_url' });
  });

  it('a vendor that needs a key refuses to call without one (no environment key stands in)', async () => {
    const providers: AiProvider[] = ['ai_vendor_a', 'ai_vendor_b', 'ai_vendor_c', 'ai_vendor_d', 'ai_vendor_e'];
    process.env.OPENAI_API_KEY = 'sk-from-environment';
    try {
      for (const provider of providers) {
        expect(await failure(call({ ...fakeEndpoint(provider, openai), apiKey: null }, fakeNet))).toMatchObject({ kind: 'auth', code: 'api_key_missing' });
        expect(await failure(call({ ...fakeEndpoint(provider, openai), apiKey: '   ' }, fakeNet))).toMatchObject({ code: 'api_key_missing' });
      }
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
    expect(openai.requests).toHaveLength(0);
  });
});
