import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { fakeCapabilities, runNodeWithEffects, unknownContact } from '../testing';
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

  it('writes for its recipient: the address book’s formality, tone and language reach the model’s request (issue 22)', async () => {
    vendor.reply({ kind: 'json', value: { subject: 'Re: Quote', bodyText: 'Madame, voici le devis.' } });
    const card = {
      ...unknownContact('ann@example.test'),
      known: true,
      formality: 'vous' as const,
      tone: 'formal' as const,
      language: 'fr',
      sources: { displayName: null, status: null, language: 'shared_domain' as const, formality: 'member_contact' as const, tone: 'member_mailbox_default' as const, notes: [] },
    };
    const lookup = vi.fn(async () => card);
    const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_c' }), contacts: { lookup } });
    const trigger = { subject: 'Quote', from: { name: 'Ann', email: 'ann@example.test' } };
    const { result } = await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Send the quote' }, capabilities, messageId, trigger });
    // The recipient defaults to the sender, read from the run's mailbox's point of view.
    expect(lookup).toHaveBeenCalledWith({ address: 'ann@example.test', mailboxId: 'mb-1' });
    const sent = JSON.stringify(vendor.lastRequest?.body);
    expect(sent).toContain('Write in fr.');
    expect(sent).toContain('formality: vous');
    expect(sent).toContain('Tone: formal.');
    expect(result).toMatchObject({
      data: { recipient: { address: 'ann@example.test', formality: 'vous', tone: 'formal', language: 'fr', sources: { formality: 'member_contact', tone: 'member_mailbox_default', language: 'shared_domain' } } },
    });
  });

  it('the node’s own language wins; `addressBook: false` reads nothing; an unknown recipient changes nothing in the prompt', async () => {
    vendor.reply({ kind: 'json', value: { subject: 's', bodyText: 'b' } });
    const tu = { ...unknownContact('bob@example.test'), known: true, formality: 'tu' as const, language: 'fr' };
    const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_c' }), contacts: { lookup: vi.fn(async () => tu) } });
    await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Hi', language: 'en', recipient: 'bob@example.test' }, capabilities });
    const sent = JSON.stringify(vendor.lastRequest?.body);
    expect(sent).toContain('Write in en.');
    expect(sent).toContain('formality: tu');

    vendor.reply({ kind: 'json', value: { subject: 's', bodyText: 'b' } });
    const off = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_c' }) });
    await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Hi', addressBook: false }, capabilities: off, trigger: { from: { email: 'bob@example.test' } } });
    expect(off.contacts.lookup).not.toHaveBeenCalled();

    vendor.reply({ kind: 'json', value: { subject: 's', bodyText: 'b' } });
    const unknown = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_c' }) });
    const { result } = await runNodeWithEffects(aiComposeNode, { params: { instructions: 'Hi' }, capabilities: unknown, trigger: { from: { email: 'nobody@example.test' } } });
    const plain = JSON.stringify(vendor.lastRequest?.body);
    expect(plain).toContain('Write in the language of the conversation.');
    expect(plain).not.toContain('formality');
    expect(plain).not.toContain('Tone:');
    expect(result).toMatchObject({ data: { recipient: { address: 'nobody@example.test', formality: null, tone: null, language: null } } });
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
