/**
 * What the AI overhead bench needs: a fake vendor that answers at once, and the same call made two
 * ways: through the provider layer (`callModel`: guard, classification, mapping) and with the bare
 * AI SDK (the provider package with the platform's fetch, no guard, no mapping). The bench compares
 * their latencies.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText } from 'ai';
import { callModel } from '../../core/ai/call-model';
import { fakeEndpoint, fakeNet, startFakeVendor } from './index';
import type { FakeVendorServer } from './fake-vendor-server';

export { startFakeVendor } from './index';

export interface OverheadPair {
  server: FakeVendorServer;
  /** One call through the provider layer; answers the text. */
  viaLayer(signal?: AbortSignal): Promise<string>;
  /** The same call through the bare SDK. */
  viaBareSdk(signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** An OpenAI-protocol fake (ai_vendor_a) and both call paths against it. The fake answers its default text. */
export async function startOverheadPair(model = 'fake-model'): Promise<OverheadPair> {
  const server = await startFakeVendor('openai');
  const endpoint = fakeEndpoint('ai_vendor_a', server, 'bench-key');
  const bare = createOpenAI({ apiKey: 'bench-key', baseURL: endpoint.baseUrl!, fetch: globalThis.fetch }).chat(model);
  const messages = [{ role: 'user' as const, content: 'Classify this mail.' }];
  return {
    server,
    async viaLayer(signal = AbortSignal.timeout(30_000)) {
      return (await callModel({ endpoint, model, messages, signal, net: fakeNet })).text;
    },
    async viaBareSdk(signal = AbortSignal.timeout(30_000)) {
      return (await generateText({ model: bare, messages, abortSignal: signal, maxRetries: 0 })).text;
    },
    close: () => server.close(),
  };
}
