/**
 * Local fake AI vendors for tests and benches: one server per wire protocol (OpenAI chat completions
 * and compatibles, Anthropic messages, Google generative API, Ollama), scripted per test.
 *
 *   const vendor = await startFakeVendor('openai');
 *   vendor.reply({ kind: 'text', text: 'Hi' }, { kind: 'rate_limit', retryAfter: '7' });
 *   await callModel({ endpoint: fakeEndpoint('ai_vendor_a', vendor, 'sk-test'), net: fakeNet, ... });
 *   vendor.lastRequest?.headers.authorization; // 'Bearer sk-test'
 */
import type { AiEndpoint, AiNetOptions, AiProvider } from '../../core/ai/types';
import { anthropicWire } from './anthropic-wire';
import { FakeVendorServer, type VendorWire } from './fake-vendor-server';
import { googleWire } from './google-wire';
import { ollamaWire } from './ollama-wire';
import { openAiWire } from './openai-wire';

export { FakeVendorServer, type FakeReply, type FakeUsage, type RecordedAiRequest } from './fake-vendor-server';

export type FakeVendorKind = 'openai' | 'anthropic' | 'google' | 'ollama';

const wires: Record<FakeVendorKind, VendorWire> = { openai: openAiWire, anthropic: anthropicWire, google: googleWire, ollama: ollamaWire };

/** The fake speaking a provider's wire protocol. */
export const fakeKindOf: Record<AiProvider, FakeVendorKind> = {
  ai_vendor_a: 'openai',
  ai_vendor_b: 'anthropic',
  ai_vendor_c: 'google',
  ai_vendor_d: 'openai',
  ai_vendor_e: 'openai',
  ai_generic_compatible: 'openai',
  ai_local: 'ollama',
};

/** Path under the fake's origin where the vendor's API root lives (what a connection's base URL points at). */
const apiRoot: Record<FakeVendorKind, string> = { openai: '/v1', anthropic: '/v1', google: '/v1beta', ollama: '' };

export async function startFakeVendor(kind: FakeVendorKind): Promise<FakeVendorServer> {
  return new FakeVendorServer(wires[kind]).start();
}

/** An endpoint pointed at the fake. */
export function fakeEndpoint(provider: AiProvider, server: FakeVendorServer, apiKey: string | null = 'fake-key'): AiEndpoint {
  const kind = (Object.entries(wires) as [FakeVendorKind, VendorWire][]).find(([, wire]) => wire === server.wire)?.[0] ?? fakeKindOf[provider];
  return { provider, baseUrl: `${server.origin}${apiRoot[kind]}`, apiKey };
}

/**
 * Network options that open the fakes' loopback address to every provider (tests only: production
 * passes none, so non-local providers reach public addresses only).
 */
export const fakeNet: AiNetOptions = { allowAddress: (_host, address) => address === '127.0.0.1' };
