import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { fakeCapabilities, runNodeWithEffects } from '../testing';
import { aiGeneralNode } from './general.node.ts';
import { vendorAi } from './vendor-ai';

describe('ai.general', () => {
  let vendor: FakeVendorServer;
  beforeAll(async () => {
    vendor = await startFakeVendor('ollama');
  });
  afterAll(async () => vendor.close());
  beforeEach(() => vendor.reset());

  it('answers the model’s text, keeping the prompt with the secret-looking parts masked', async () => {
    vendor.reply({ kind: 'text', text: 'Paris' });
    const { result } = await runNodeWithEffects(aiGeneralNode, { params: { prompt: 'Capital of France?', system: 'Be brief' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_local' }) }) });
    expect(result).toMatchObject({ data: { text: 'Paris', ai: { purpose: 'general', prompt: { system: 'Be brief', messages: [{ role: 'user', content: 'Capital of France?' }] }, answer: 'Paris' } } });
  });

  it('answers JSON checked against the fields when a schema is given', async () => {
    vendor.reply({ kind: 'json', value: { city: 'Paris', population: 2_100_000 } });
    const { result } = await runNodeWithEffects(aiGeneralNode, {
      params: { prompt: 'Capital of France?', schema: [{ name: 'city', required: true }, { name: 'population', type: 'integer' }] },
      capabilities: fakeCapabilities({ ai: vendorAi(vendor, { provider: 'ai_local' }) }),
    });
    expect(result).toMatchObject({ data: { json: { city: 'Paris', population: 2_100_000 } } });
  });

  it('uses the model the node names', async () => {
    vendor.reply({ kind: 'text', text: 'ok' });
    const capabilities = fakeCapabilities();
    await runNodeWithEffects(aiGeneralNode, { params: { prompt: 'x', model: 'big-model' }, capabilities });
    expect(capabilities.ai.call).toHaveBeenCalledWith(expect.objectContaining({ purpose: 'general', model: 'big-model' }));
  });

  it('answers a marked placeholder in a simulated run without calling the model', async () => {
    const { result } = await runNodeWithEffects(aiGeneralNode, { params: { prompt: 'x' }, capabilities: fakeCapabilities({ ai: vendorAi(vendor, { simulated: true }) }), simulated: true });
    expect(result).toMatchObject({ data: { text: '[Simulated answer]', ai: { simulated: true } }, effects: [{ kind: 'ai.call', simulated: true }] });
    expect(vendor.lastRequest).toBeUndefined();
  });

  it.each([[{}], [{ prompt: '' }], [{ prompt: 'x', schema: [] }]])('refuses %j', (params) => {
    expect(aiGeneralNode.params.safeParse(params).success).toBe(false);
  });
});
