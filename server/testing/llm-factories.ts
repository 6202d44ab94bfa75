/**
 * AI connections and spending for integration tests: an instance connection on a fake vendor
 * (server/testing/ai-fakes), its key sealed as the llm domain seals it, and a past call's cost that
 * brings a budget to its end.
 */
import { randomUUID } from 'node:crypto';
import type { AiProvider } from '../core/ai/types';
import { seal } from '../core/crypto/secret-box';
import { db } from '../core/db';
import { keyPurposeOf } from '../domains/llm/repo';
import type { FakeVendorServer } from './ai-fakes';

export interface FakeConnectionOptions {
  provider?: AiProvider;
  label?: string;
  apiKey?: string;
  enabledModels?: string[];
  isDefault?: boolean;
}

/** An administrator's AI connection whose base URL is the fake vendor (`/v1`), the instance default unless told. */
export async function createFakeLlmConnection(vendor: FakeVendorServer, options: FakeConnectionOptions = {}) {
  const row = await db().llmConnection.create({
    data: {
      provider: options.provider ?? 'ai_vendor_a',
      label: options.label ?? `Fake ${randomUUID()}`,
      baseUrl: `${vendor.origin}/v1`,
      isDefault: options.isDefault ?? true,
      enabledModels: options.enabledModels ?? ['fake-model'],
    },
  });
  return db().llmConnection.update({ where: { id: row.id }, data: { apiKeyEnc: seal(options.apiKey ?? 'sk-fake-key', keyPurposeOf(row.id)) } });
}

/** A call of this month that cost `usd`, on the instance's account, for the member. */
export async function recordPastSpend(memberId: string, usd: number) {
  await db().llmUsage.create({ data: { provider: 'ai_vendor_a', model: 'fake-model', purpose: 'general', memberId, inputTokens: 1, outputTokens: 1, reasoningTokens: 0, costUsd: usd } });
}
