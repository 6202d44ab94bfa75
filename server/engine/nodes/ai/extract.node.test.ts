import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { prototypeNames } from '../../../testing/prototype-names';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { fakeCapabilities, runNodeWithEffects } from '../testing';
import { aiExtractNode } from './extract.node.ts';
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
});
