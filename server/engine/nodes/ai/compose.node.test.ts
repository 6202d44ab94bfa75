import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { fakeCapabilities, runNodeWithEffects } from '../testing';
import { aiComposeNode } from './compose.node.ts';
import { vendorAi } from './vendor-ai';

const messageId = '0b0b0b0b-0000-4000-8000-000000000002';
const thread = [
  { fromName: 'Ann', fromEmail: 'ann@example.test', subject: 'Quote', receivedAt: '2026-03-01T09:00:00.000Z', text: 'Can you send a quote?' },
  { fromName: 'Me', fromEmail: 'me@example.test', subject: 'Re: Quote', receivedAt: '2026-03-01T09:30:00.000Z', text: 'For how many units?' },
];

describe('ai.compose', () => {
  let vendor: FakeVendorServer;
  beforeAll(async () => {
    vendor = await startFakeVendor('google');
  });
  afterAll(async () => vendor.close());
  beforeEach(() => vendor.reset());

  it('writes {subject, bodyText} from the instructions and the thread', async () => {
    vendor.reply({ kind: 'json', value: { subject: 'Re: Quote', bodyText: 'Hello Ann, here is the quote.' } });
    const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_c' }), mail: { threadContext: vi.fn(async () => thread) } });
    const { result } = await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Send the quote politely', threadMessages: 2 }, capabilities, messageId, trigger: { subject: 'Quote' } });
    expect(result).toMatchObject({ data: { subject: 'Re: Quote', bodyText: 'Hello Ann, here is the quote.', ai: { purpose: 'compose' } } });
    const sent = JSON.stringify(vendor.lastRequest?.body);
    expect(sent).toContain('Can you send a quote?');
    expect(sent).toContain('For how many units?');
    expect(sent).toContain('Send the quote politely');
    expect(capabilities.mail.threadContext).toHaveBeenCalledWith({ messageId, limit: 2, maxChars: 8_000 });
  });

  it('answers a marked placeholder draft in a simulated run without calling the model', async () => {
    const { result } = await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Say thanks' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { simulated: true }) }), simulated: true, trigger: { subject: 'Hello' } });
    expect(result).toMatchObject({ data: { subject: 'Re: Hello', bodyText: '[Simulated draft] Say thanks' }, effects: [{ kind: 'ai.call', simulated: true }] });
    expect(vendor.lastRequest).toBeUndefined();
  });

  it.each([[{}], [{ instructions: ' ' }], [{ instructions: 'x', threadMessages: 21 }]])('refuses %j', (params) => {
    expect(aiComposeNode.params.safeParse(params).success).toBe(false);
  });
});
