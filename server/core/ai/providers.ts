/**
 * What each provider is on the wire: the facts the rest of the layer reads (default base URL, wire
 * protocol, tools, structured output, how models are listed, whether a key is needed). One table,
 * no behaviour.
 */
import type { AiEndpoint, AiProvider } from './types';

export type AiWireProtocol = 'openai_chat' | 'anthropic_messages' | 'google_generative' | 'openai_compatible' | 'ollama';

export type AiModelListing =
  /** GET {base}/models → `{ data: [{ id }] }` (OpenAI and compatibles). */
  | 'openai_models'
  /** GET {base}/models → `{ data: [{ id, type: 'model' }], has_more, last_id }` (Anthropic; paged by `after_id`). */
  | 'anthropic_models'
  /** GET {base}/models → `{ models: [{ name: 'models/…', supportedGenerationMethods }], nextPageToken }`. */
  | 'google_models'
  /** GET {root}/api/tags → `{ models: [{ name, model }] }` (Ollama). */
  | 'ollama_tags';

export interface AiProviderFacts {
  /** The vendor behind the opaque provider name (for documentation and logs, never shown to members). */
  vendor: string;
  protocol: AiWireProtocol;
  /** Used when the connection has no base URL; null: a base URL is required. */
  defaultBaseUrl: string | null;
  requiresApiKey: boolean;
  supportsTools: boolean;
  /** `json_schema`: the vendor constrains the answer to the schema; the answer is validated here either way. */
  supportsStructuredOutput: boolean;
  modelListing: AiModelListing;
  /** The base URL may point at private addresses when the instance allows it. */
  mayUsePrivateNetwork: boolean;
}

export const aiProviderFacts: Record<AiProvider, AiProviderFacts> = {
  ai_vendor_a: {
    vendor: 'OpenAI',
    protocol: 'openai_chat',
    defaultBaseUrl: 'https://api.openai.com/v1',
    requiresApiKey: true,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'openai_models',
    mayUsePrivateNetwork: false,
  },
  ai_vendor_b: {
    vendor: 'Anthropic',
    protocol: 'anthropic_messages',
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    requiresApiKey: true,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'anthropic_models',
    mayUsePrivateNetwork: false,
  },
  ai_vendor_c: {
    vendor: 'Google Gemini API',
    protocol: 'google_generative',
    defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    requiresApiKey: true,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'google_models',
    mayUsePrivateNetwork: false,
  },
  ai_vendor_d: {
    vendor: 'Mistral AI',
    protocol: 'openai_compatible',
    defaultBaseUrl: 'https://api.mistral.ai/v1',
    requiresApiKey: true,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'openai_models',
    mayUsePrivateNetwork: false,
  },
  ai_vendor_e: {
    vendor: 'Groq',
    protocol: 'openai_compatible',
    defaultBaseUrl: 'https://api.groq.com/openai/v1',
    requiresApiKey: true,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'openai_models',
    mayUsePrivateNetwork: false,
  },
  ai_local: {
    vendor: 'Ollama',
    protocol: 'ollama',
    defaultBaseUrl: 'http://127.0.0.1:11434',
    requiresApiKey: false,
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'ollama_tags',
    mayUsePrivateNetwork: true,
  },
  ai_generic_compatible: {
    vendor: 'OpenAI-compatible server',
    protocol: 'openai_compatible',
    defaultBaseUrl: null,
    requiresApiKey: false,
    // Whether a given server honours tools is unknown; the OpenAI-compatible wire format carries them.
    supportsTools: true,
    supportsStructuredOutput: true,
    modelListing: 'openai_models',
    mayUsePrivateNetwork: false,
  },
};

/** The base URL to call, without trailing slash: the connection's, or the provider's default. */
export function baseUrlOf(endpoint: AiEndpoint): string | null {
  const text = endpoint.baseUrl?.trim() || aiProviderFacts[endpoint.provider].defaultBaseUrl;
  return text ? text.replace(/\/+$/, '') : null;
}
