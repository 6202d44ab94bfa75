/**
 * A conversation that carries a tool round trip (the assistant's call, the tool's result) and an
 * output bound reaches each wire format in the vendor's own shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callModel } from './call-model';
import type { AiMessage, AiNetOptions, AiProvider } from './types';
import { fakeEndpoint, fakeKindOf, fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';

const history: AiMessage[] = [
  { role: 'user', content: 'Where does the ACME invoice go?' },
  { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'list_folders', input: { parent: 'Inbox' } }] },
  { role: 'tool', toolCallId: 'call_1', toolName: 'list_folders', result: { folders: ['Invoices', 'Receipts'] } },
];

const cases: { provider: AiProvider; model: string; check: (body: any) => void }[] = [
  {
    provider: 'ai_vendor_a',
    model: 'gpt-4.1-mini',
    check(body) {
      expect(body.max_completion_tokens ?? body.max_tokens).toBe(300);
      expect(body.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list_folders' } }] });
      expect(JSON.parse(body.messages[1].tool_calls[0].function.arguments)).toEqual({ parent: 'Inbox' });
      expect(body.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
      expect(JSON.parse(body.messages[2].content)).toEqual({ folders: ['Invoices', 'Receipts'] });
    },
  },
  {
    provider: 'ai_vendor_b',
    model: 'claude-sonnet-4-5',
    check(body) {
      expect(body.max_tokens).toBe(300);
      expect(body.messages[1]).toMatchObject({ role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'list_folders', input: { parent: 'Inbox' } }] });
      expect(body.messages[2]).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1' }] });
    },
  },
  {
    provider: 'ai_vendor_c',
    model: 'gemini-2.5-flash',
    check(body) {
      expect(body.generationConfig.maxOutputTokens).toBe(300);
      expect(body.contents[1]).toMatchObject({ role: 'model', parts: [{ functionCall: { name: 'list_folders', args: { parent: 'Inbox' } } }] });
      expect(body.contents[2]).toMatchObject({ role: 'user', parts: [{ functionResponse: { name: 'list_folders' } }] });
    },
  },
  {
    provider: 'ai_local',
    model: 'llama3.2',
    check(body) {
      expect(body.options?.num_predict).toBe(300);
      expect(body.messages[1]).toMatchObject({ role: 'assistant', tool_calls: [{ function: { name: 'list_folders', arguments: { parent: 'Inbox' } } }] });
      expect(body.messages[2]).toMatchObject({ role: 'tool' });
    },
  },
];

describe('a conversation with a tool round trip, per wire format', () => {
  const servers = new Map<AiProvider, FakeVendorServer>();
  beforeAll(async () => {
    for (const { provider } of cases) servers.set(provider, await startFakeVendor(fakeKindOf[provider]));
  });
  afterAll(async () => {
    for (const server of servers.values()) await server.close();
  });

  for (const { provider, model, check } of cases) {
    it(provider, async () => {
      const server = servers.get(provider)!;
      server.reply({ kind: 'text', text: 'Invoices.' });
      const net: AiNetOptions = provider === 'ai_local' ? { allowPrivate: true } : fakeNet;
      const result = await callModel({ endpoint: fakeEndpoint(provider, server), model, messages: history, maxOutputTokens: 300, signal: AbortSignal.timeout(5000), net });
      expect(result.text).toBe('Invoices.');
      check(server.lastRequest!.body);
    });
  }

  it('refuses an out-of-bounds output limit before calling', async () => {
    const server = servers.get('ai_vendor_a')!;
    const before = server.requests.length;
    for (const maxOutputTokens of [0, -1, 1.5, 1_000_000]) {
      await expect(
        callModel({ endpoint: fakeEndpoint('ai_vendor_a', server), model: 'm', messages: history, maxOutputTokens, signal: AbortSignal.timeout(5000), net: fakeNet }),
      ).rejects.toMatchObject({ kind: 'bad_request' });
    }
    expect(server.requests.length).toBe(before);
  });
});
