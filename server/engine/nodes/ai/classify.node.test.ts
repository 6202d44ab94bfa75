import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { NodeFailure, RateLimited } from '../../contract/failures';
import { fakeCapabilities, runNodeWithEffects } from '../testing';
import { aiClassifyNode } from './classify.node.ts';
import { vendorAi } from './vendor-ai';

const labels = [
  { name: 'invoice', description: 'A bill to pay' },
  { name: 'other', description: '' },
];
const messageId = '0b0b0b0b-0000-4000-8000-000000000001';

describe('ai.classify', () => {
  let vendor: FakeVendorServer;
  beforeAll(async () => {
    vendor = await startFakeVendor('openai');
  });
  afterAll(async () => vendor.close());
  beforeEach(() => vendor.reset());

  it('answers the label and confidence from the model, writes the classification and keeps the prompt with the step', async () => {
    vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.9 }, usage: { input: 40, output: 5 } });
    const capabilities = fakeCapabilities({ ai: vendorAi(vendor) });
    const { result } = await runNodeWithEffects(aiClassifyNode, {
      params: { labels, text: 'Please pay invoice 42' },
      capabilities,
      messageId,
    });
    expect(result).toMatchObject({
      data: { label: 'invoice', confidence: 0.9, ai: { purpose: 'classify', model: 'fake-model', simulated: false, answer: { label: 'invoice' }, usage: { inputTokens: 40, outputTokens: 5 } } },
      effects: [{ kind: 'ai.call' }, { kind: 'mail.classify' }],
    });
    expect(JSON.stringify(vendor.lastRequest?.body)).toContain('Please pay invoice 42');
    expect(JSON.stringify(vendor.lastRequest?.body)).toContain('A bill to pay');
    expect(capabilities.mail.classify).toHaveBeenCalledWith({ messageId, key: 'ai', value: expect.objectContaining({ label: 'invoice', confidence: 0.9 }) });
  });

  it('reads the triggering message when no text is given', async () => {
    vendor.reply({ kind: 'json', value: { label: 'other', confidence: 0.5 } });
    const capabilities = fakeCapabilities({
      ai: vendorAi(vendor),
      mail: { threadContext: async () => [{ fromName: 'Ann', fromEmail: 'ann@example.test', subject: 'Lunch', receivedAt: '2026-03-01T10:00:00.000Z', text: 'See you at noon' }] },
    });
    const { result } = await runNodeWithEffects(aiClassifyNode, { params: { labels, writeClassification: false }, capabilities, messageId });
    expect(result).toMatchObject({ data: { label: 'other' } });
    expect(JSON.stringify(vendor.lastRequest?.body)).toContain('See you at noon');
    expect(capabilities.mail.classify).not.toHaveBeenCalled();
  });

  it('reads the message’s attachments only when asked (`attachments: pdf_and_text`; default none)', async () => {
    const texts = { read: [{ filename: 'order.txt', contentType: 'text/plain', text: 'Purchase order PO-9', truncated: false, note: null }], left: 0 };
    vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.7 } });
    const off = fakeCapabilities({ ai: vendorAi(vendor), mail: { attachmentTexts: vi.fn(async () => texts) } });
    await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'New order', writeClassification: false }, capabilities: off, messageId });
    expect(off.mail.attachmentTexts).not.toHaveBeenCalled();
    expect(JSON.stringify(vendor.lastRequest?.body)).not.toContain('PO-9');
    vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.7 } });
    const on = fakeCapabilities({ ai: vendorAi(vendor), mail: { attachmentTexts: vi.fn(async () => texts) } });
    await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'New order', writeClassification: false, attachments: 'pdf_and_text' }, capabilities: on, messageId });
    expect(on.mail.attachmentTexts).toHaveBeenCalledWith(expect.objectContaining({ messageId }));
    expect(JSON.stringify(vendor.lastRequest?.body)).toContain('=== Attachment 1 of 1: order.txt (text/plain) ===\\nPurchase order PO-9');
  });

  it('fails temporarily when the model answers a label that is not listed', async () => {
    vendor.reply({ kind: 'json', value: { label: 'spam', confidence: 1 } });
    const error = await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor) }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeFailure);
    expect(error).toMatchObject({ code: 'ai_invalid_output', kind: 'transient' });
  });

  it('maps a rate limit to RateLimited with the vendor’s Retry-After, and a 401 to a permanent failure', async () => {
    vendor.reply({ kind: 'rate_limit', retryAfter: '7' });
    const before = Date.now();
    const limited = await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor) }) }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAt.getTime()).toBeGreaterThanOrEqual(before + 7_000);
    vendor.reply({ kind: 'error', status: 401 });
    const refused = await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor) }) }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'ai_call_failed', kind: 'permanent' });
  });

  it('answers the first label in a simulated run without calling the model, and says so', async () => {
    const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { simulated: true }) });
    const { result } = await runNodeWithEffects(aiClassifyNode, { params: { labels, text: 'x' }, capabilities, simulated: true, messageId });
    expect(result).toMatchObject({ data: { label: 'invoice', confidence: 0, ai: { simulated: true } }, effects: [{ kind: 'ai.call', simulated: true }, { kind: 'mail.classify', simulated: true }] });
    expect(vendor.lastRequest).toBeUndefined();
  });

  it('has the AI retry defaults and no external effect', () => {
    expect(aiClassifyNode.retry).toEqual({ maxAttempts: 3, delayMs: 10_000, timeoutMs: 300_000 });
    expect(aiClassifyNode.effect).toBe('none');
    expect(aiClassifyNode.category).toBe('ai');
  });

  it.each([[{ labels: [labels[0]] }], [{ labels: [labels[0], labels[0]] }], [{ labels, model: '' }], [{ labels, extra: true }]])('refuses %j', (params) => {
    expect(aiClassifyNode.params.safeParse(params).success).toBe(false);
  });
});
