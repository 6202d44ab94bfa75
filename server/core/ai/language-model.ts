/**
 * The AI SDK model object for an endpoint and a model name: one provider package per wire protocol,
 * always with an explicit base URL, key and fetch (so nothing is read from the environment: an
 * instance-level OPENAI_API_KEY never stands in for a connection without a key).
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';
import { AiCallError } from './errors';
import { aiProviderFacts } from './providers';
import type { AiFetch } from './transport';
import type { AiEndpoint } from './types';

/** Ollama's native API lives under `/api` of the server's root (what people type: `http://host:11434`). */
export function ollamaApiUrl(base: URL): string {
  const text = base.href.replace(/\/+$/, '');
  return /\/api$/.test(base.pathname.replace(/\/+$/, '')) ? text : `${text}/api`;
}

/** The key the endpoint must carry; refuses before any request when the provider needs one and it is missing. */
export function requiredKey(endpoint: AiEndpoint): string | undefined {
  const key = endpoint.apiKey?.trim() || undefined;
  if (!key && aiProviderFacts[endpoint.provider].requiresApiKey) throw new AiCallError('api_key_missing', { provider: endpoint.provider });
  return key;
}

export function createLanguageModel(endpoint: AiEndpoint, baseUrl: URL, model: string, fetch: AiFetch): LanguageModel {
  const apiKey = requiredKey(endpoint);
  const baseURL = baseUrl.href.replace(/\/+$/, '');
  switch (endpoint.provider) {
    case 'ai_vendor_a':
      // Chat completions: the wire format every compatible server shares, with tools, json_schema and usage.
      return createOpenAI({ apiKey, baseURL, fetch, name: 'ai_vendor_a' }).chat(model);
    case 'ai_vendor_b':
      return createAnthropic({ apiKey, baseURL, fetch, name: 'ai_vendor_b' })(model);
    case 'ai_vendor_c':
      return createGoogleGenerativeAI({ apiKey, baseURL, fetch, name: 'ai_vendor_c' })(model);
    case 'ai_vendor_d':
    case 'ai_vendor_e':
    case 'ai_generic_compatible':
      return createOpenAICompatible({
        name: endpoint.provider,
        baseURL,
        apiKey,
        fetch,
        includeUsage: true,
        supportsStructuredOutputs: aiProviderFacts[endpoint.provider].supportsStructuredOutput,
      }).chatModel(model);
    case 'ai_local':
      return createOllama({ baseURL: ollamaApiUrl(baseUrl), fetch, name: 'ai_local' })(model);
  }
}
