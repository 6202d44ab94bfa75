/**
 * What the service knows about AI providers without asking them: the provider and purpose lists in
 * the spec's order, and per provider a short static list of model names. The list is a typing aid
 * (`restricted: false` in `GET /api/v1/llm-connections/{id}/models`) and gives a connection without
 * `enabledModels` its default model (the first one). It is never a restriction: a connection serves
 * any model its provider accepts unless the administrator listed `enabledModels`.
 *
 * Terminology: a *provider* is a wire protocol and vendor (`ai_vendor_a` …); a *connection* is one
 * configured endpoint of a provider (key, base URL); a *purpose* is what a call is for (`classify`,
 * the assistant…); *routing* is the administrator's choice of connection and model per purpose.
 */
import type { AiProvider } from '../../core/ai/types';

export const aiProviders = ['ai_vendor_a', 'ai_vendor_b', 'ai_vendor_c', 'ai_vendor_d', 'ai_vendor_e', 'ai_local', 'ai_generic_compatible'] as const satisfies readonly AiProvider[];

export const llmPurposes = ['classify', 'compose', 'extract', 'general', 'analyzer', 'assistant'] as const;
export type LlmPurpose = (typeof llmPurposes)[number];

/**
 * Providers that can be used without an API key: a local runtime and a self-hosted compatible
 * server. The vendors' APIs always need one.
 */
export const keylessProviders: ReadonlySet<AiProvider> = new Set(['ai_local', 'ai_generic_compatible']);

/** Providers that need a base URL: the generic one has no address of its own. */
export const baseUrlRequired: ReadonlySet<AiProvider> = new Set(['ai_generic_compatible']);

/**
 * Known model names per provider, the provider's default first. The provider layer
 * (server/core/ai/) may know better; this list only helps typing and picks a default.
 */
const modelCatalogue: Readonly<Record<AiProvider, readonly string[]>> = {
  ai_vendor_a: ['gpt-4.1-mini', 'gpt-4.1', 'gpt-4.1-nano', 'gpt-4o', 'gpt-4o-mini', 'o4-mini', 'o3'],
  ai_vendor_b: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'],
  ai_vendor_c: ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.5-flash-lite'],
  ai_vendor_d: ['mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest'],
  ai_vendor_e: ['deepseek-chat', 'deepseek-reasoner'],
  ai_local: ['llama3.2', 'qwen2.5', 'mistral', 'gemma3'],
  // Whatever the server behind it serves: nothing to suggest, no default.
  ai_generic_compatible: [],
};

export function isAiProvider(value: string): value is AiProvider {
  return (aiProviders as readonly string[]).includes(value);
}

/** The static list of a provider's models (a copy; empty for the generic provider or an unknown one). */
export function catalogueModels(provider: string): string[] {
  return isAiProvider(provider) ? [...modelCatalogue[provider]] : [];
}

/** The provider's default model, or null when it has none (the generic provider). */
export function providerDefaultModel(provider: string): string | null {
  return isAiProvider(provider) ? (modelCatalogue[provider][0] ?? null) : null;
}
