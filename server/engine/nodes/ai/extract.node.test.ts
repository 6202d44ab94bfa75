import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { prototypeNames } from '../../../testing/prototype-names';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { attachmentTextBounds } from '../../contract/limits';
import type { AttachmentTexts } from '../../contract/capabilities';
import { fakeCapabilities, runNodeWithEffects } from '../testing';
import { aiExtractNode } from './extract.node.ts';
import { attachmentsText } from './shared';
import { vendorAi } from './vendor-ai';

const fields = [
  { name: 'invoiceNumber', type: 'string', description: 'The invoice number', required: true },
  { name: 'amount', type: 'number', required: true },
  { name: 'dueDate', type: 'date' },
  { name: 'toString', type: 'string' },
];

describe('ai.extract', () => {
  let vendor: FakeVendorServer;
  beforeAll(async () => {
    vendor = await startFakeVendor('anthropic');
  });
  afterAll(async () => vendor.close());
  beforeEach(() => vendor.reset());

  it('answers the fields validated against the list (optional ones null, a prototype name as a plain key)', async () => {
    vendor.reply({ kind: 'json', value: { invoiceNumber: 'F-42', amount: 120.5, dueDate: null, toString: 'x' } });
    const { result } = await runNodeWithEffects(aiExtractNode, { params: { fields, text: 'Invoice F-42, 120.50 EUR' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }) }) });
    expect(result).toMatchObject({ data: { fields: { invoiceNumber: 'F-42', amount: 120.5, dueDate: null, toString: 'x' }, ai: { purpose: 'extract', provider: 'ai_vendor_b' } } });
    expect(JSON.stringify(vendor.lastRequest?.body)).toContain('The invoice number');
  });

  it('fails temporarily when a required field has the wrong type', async () => {
    vendor.reply({ kind: 'json', value: { invoiceNumber: 'F-42', amount: 'lots', dueDate: null, toString: null } });
    const error = await runNodeWithEffects(aiExtractNode, { params: { fields, text: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }) }) }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ai_invalid_output', kind: 'transient' });
  });

  it('answers typed placeholders in a simulated run without calling the model', async () => {
    const { result } = await runNodeWithEffects(aiExtractNode, { params: { fields, text: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { simulated: true }) }), simulated: true });
    expect(result).toMatchObject({ data: { fields: { invoiceNumber: 'simulated', amount: 0, dueDate: null, toString: null }, ai: { simulated: true } }, effects: [{ kind: 'ai.call', simulated: true }] });
    expect(vendor.lastRequest).toBeUndefined();
  });

  it.each<[unknown]>([
    [{ fields: [] }],
    [{ fields: [{ name: 'a' }, { name: 'a' }] }],
    [{ fields: [{ name: '1a' }] }],
    [{ fields: [{ name: 'a', type: 'object' }] }],
    ...['__proto__', 'constructor', 'prototype'].map((name): [unknown] => [{ fields: [{ name }] }]),
  ])('refuses %j', (params) => {
    expect(aiExtractNode.params.safeParse(params).success).toBe(false);
  });

  it('accepts the other prototype names as field names', () => {
    const names = prototypeNames.filter((name) => !['__proto__', 'constructor', 'prototype'].includes(name));
    expect(aiExtractNode.params.safeParse({ fields: names.map((name) => ({ name })) }).success).toBe(true);
  });

  describe('attachments', () => {
    const messageId = '0c5b1f6e-0000-4000-8000-000000000001';
    const invoice: AttachmentTexts = {
      read: [
        { filename: 'INV-7.pdf', contentType: 'application/pdf', text: 'Invoice INV-7\nTotal due: EUR 99.00', truncated: false, note: null },
        { filename: 'scan.pdf', contentType: 'application/pdf', text: null, truncated: false, note: 'could not read: it is protected by a password' },
      ],
      left: 2,
    };
    const thread = async () => [{ fromName: 'Billing', fromEmail: 'billing@supplier.test', subject: 'Your invoice', receivedAt: '2026-03-01T10:00:00.000Z', text: 'Please find it attached.' }];

    it('off by default: the attachments are not read and the request is the message alone', async () => {
      vendor.reply({ kind: 'json', value: { invoiceNumber: 'INV-7', amount: 99, dueDate: null, toString: null } });
      const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }), mail: { threadContext: thread } });
      await runNodeWithEffects(aiExtractNode, { params: { fields }, capabilities, messageId });
      expect(capabilities.mail.attachmentTexts).not.toHaveBeenCalled();
      const body = JSON.stringify(vendor.lastRequest?.body);
      expect(body).toContain('Please find it attached.');
      expect(body).not.toContain('Attachment');
      expect(aiExtractNode.params.parse({ fields }).attachments).toBe('none');
    });

    it('pdf_and_text: the model reads the message, then each attachment’s text under its name, notes and the count left; within the bounds', async () => {
      vendor.reply({ kind: 'json', value: { invoiceNumber: 'INV-7', amount: 99, dueDate: null, toString: null } });
      const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }), mail: { threadContext: thread, attachmentTexts: vi.fn(async () => invoice) } });
      const { result } = await runNodeWithEffects(aiExtractNode, { params: { fields, attachments: 'pdf_and_text' }, capabilities, messageId });
      expect(capabilities.mail.attachmentTexts).toHaveBeenCalledWith({ messageId, bounds: attachmentTextBounds });
      expect(attachmentTextBounds).toEqual({ attachments: 3, pdfBytes: 2 * 1024 * 1024, pdfPages: 20, textBytes: 32 * 1024 });
      const content = (result as { data: { ai: { prompt: { messages: { content: string }[] } } } }).data.ai.prompt.messages[0]!.content;
      expect(content).toContain('Please find it attached.\n\n=== Attachment 1 of 4: INV-7.pdf (application/pdf) ===\nInvoice INV-7\nTotal due: EUR 99.00');
      expect(content).toContain('=== Attachment 2 of 4: scan.pdf (application/pdf) ===\n[could not read: it is protected by a password]');
      expect(content.endsWith('[2 more attachments not read]')).toBe(true);
      expect(JSON.stringify(vendor.lastRequest?.body)).toContain('Total due: EUR 99.00');
    });

    it('pdf_and_text with a text given: the attachments follow the text; with no triggering message nothing is read', async () => {
      vendor.reply({ kind: 'json', value: { invoiceNumber: 'INV-7', amount: 99, dueDate: null, toString: null } });
      const capabilities = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }), mail: { attachmentTexts: async () => invoice } });
      await runNodeWithEffects(aiExtractNode, { params: { fields, text: 'Supplier: ACME', attachments: 'pdf_and_text' }, capabilities, messageId });
      expect(JSON.stringify(vendor.lastRequest?.body)).toContain('Supplier: ACME\\n\\n=== Attachment 1 of 4');
      vendor.reply({ kind: 'json', value: { invoiceNumber: 'INV-7', amount: 99, dueDate: null, toString: null } });
      const alone = fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_vendor_b' }) });
      await runNodeWithEffects(aiExtractNode, { params: { fields, text: 'Supplier: ACME', attachments: 'pdf_and_text' }, capabilities: alone });
      expect(alone.mail.attachmentTexts).not.toHaveBeenCalled();
    });

    it.each<[string, AttachmentTexts | null, string]>([
      ['nothing readable', { read: [], left: 0 }, ''],
      ['not the member’s message', null, ''],
      ['one read whole', { read: [{ filename: 'a.txt', contentType: 'text/plain', text: 'hello', truncated: false, note: null }], left: 0 }, '=== Attachment 1 of 1: a.txt (text/plain) ===\nhello'],
      ['one cut', { read: [{ filename: 'b.pdf', contentType: 'application/pdf', text: 'p1', truncated: true, note: 'read the first 20 of 31 pages' }], left: 1 }, '=== Attachment 1 of 2: b.pdf (application/pdf) ===\np1\n[read the first 20 of 31 pages]\n\n[1 more attachment not read]'],
    ])('attachmentsText: %s', (_name, found, expected) => {
      expect(found ? attachmentsText(found) : '').toBe(expected);
    });
  });
});
