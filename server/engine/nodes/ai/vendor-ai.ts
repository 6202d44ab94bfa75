/**
 * Node unit tests' `ai` capability (not a node module): the real provider layer (callModel and the
 * capability's error mapping) against a local fake vendor (server/testing/ai-fakes), without the
 * llm domain's routing, budgets and usage (the engine integration tests cover those).
 */
import { callModel } from '../../../core/ai';
import type { AiProvider } from '../../../core/ai/types';
import { fakeEndpoint, fakeNet, type FakeVendorServer } from '../../../testing/ai-fakes';
import { aiFailure, simulatedOutcome } from '../../contract/ai-outcomes';
import type { AiCapability } from '../../contract/capabilities';

export function vendorAi(vendor: FakeVendorServer, options: { provider?: AiProvider; model?: string; simulated?: boolean } = {}): AiCapability {
  const provider = options.provider ?? 'ai_vendor_a';
  return {
    async call(input) {
      if (options.simulated) return simulatedOutcome(input);
      const model = input.model ?? options.model ?? 'fake-model';
      try {
        const result = await callModel({ endpoint: fakeEndpoint(provider, vendor), model, system: input.system, messages: input.messages, output: input.output, tools: input.tools, signal: input.signal, net: fakeNet });
        return { text: result.text, object: result.object, toolCalls: result.toolCalls, provider, model, usage: result.usage, costUsd: null, simulated: false };
      } catch (error) {
        throw aiFailure(error);
      }
    },
  };
}
