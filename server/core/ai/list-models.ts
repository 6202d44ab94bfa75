/**
 * The models an endpoint offers, read from the vendor's own listing (the AI SDK has no listing call):
 * OpenAI-style `GET /models`, Anthropic's paged `GET /v1/models`, Google's `GET /v1beta/models`
 * (models that can `generateContent`), Ollama's `GET /api/tags`. Through the guarded transport,
 * answers read bounded, names bounded and deduplicated.
 */
import { aiErrorFromStatus, AiCallError, classifyAiError } from './errors';
import { ollamaApiUrl, requiredKey } from './language-model';
import { aiProviderFacts } from './providers';
import { aiFetch, checkedBaseUrl, type AiFetch } from './transport';
import type { AiEndpoint, AiModelList, AiNetOptions, AiProvider } from './types';

const maxModels = 2000;
const maxModelNameLength = 200;
const maxPages = 10;
const maxListingBytes = 8 * 1024 * 1024;

interface Page {
  names: unknown[];
  /** The next page's URL, when the listing is paged and has more. */
  next: string | null;
}

function withQuery(base: string, path: string, query: Record<string, string> = {}): string {
  const url = new URL(`${base.replace(/\/+$/, '')}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

async function readJson(response: Response, provider: AiProvider): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) throw new AiCallError('bad_response', { provider });
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxListingBytes) {
      await reader.cancel().catch(() => {});
      throw new AiCallError('bad_response', { provider });
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new AiCallError('bad_response', { provider });
  }
}

async function getJson(fetch: AiFetch, url: string, headers: Record<string, string>, provider: AiProvider, signal: AbortSignal): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'GET', headers: { accept: 'application/json', ...headers }, signal });
  if (!response.ok) {
    const body = await response.text().catch(() => '');
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      Object.defineProperty(responseHeaders, name, { value, enumerable: true, writable: true, configurable: true });
    });
    throw aiErrorFromStatus(response.status, provider, body.slice(0, 64 * 1024), responseHeaders);
  }
  const json = await readJson(response, provider);
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new AiCallError('bad_response', { provider });
  return json as Record<string, unknown>;
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function field(item: unknown, name: string): unknown {
  return item && typeof item === 'object' && Object.hasOwn(item, name) ? (item as Record<string, unknown>)[name] : undefined;
}

/**
 * Lists the endpoint's models. Throws AiCallError (`auth` for a refused key, `blocked` for a base URL
 * the guard refuses, `transient` for the network or a 5xx, `rate_limited`...).
 */
export async function listModels(endpoint: AiEndpoint, signal: AbortSignal, net?: AiNetOptions): Promise<AiModelList> {
  const provider = endpoint.provider;
  const facts = aiProviderFacts[provider];
  try {
    signal.throwIfAborted();
    const base = checkedBaseUrl(endpoint);
    const key = requiredKey(endpoint);
    const fetch = aiFetch(endpoint, net);
    const root = base.href.replace(/\/+$/, '');

    let first: string;
    let headers: Record<string, string>;
    let readPage: (json: Record<string, unknown>, url: string) => Page;
    switch (facts.modelListing) {
      case 'openai_models':
        first = withQuery(root, '/models');
        headers = key ? { authorization: `Bearer ${key}` } : {};
        readPage = (json) => ({ names: arrayOf(json.data).map((item) => field(item, 'id')), next: null });
        break;
      case 'anthropic_models':
        first = withQuery(root, '/models', { limit: '1000' });
        headers = { 'x-api-key': key ?? '', 'anthropic-version': '2023-06-01' };
        readPage = (json) => {
          const data = arrayOf(json.data);
          const last = json.last_id;
          const next = json.has_more === true && typeof last === 'string' && data.length > 0 ? withQuery(root, '/models', { limit: '1000', after_id: last }) : null;
          return { names: data.map((item) => field(item, 'id')), next };
        };
        break;
      case 'google_models':
        first = withQuery(root, '/models', { pageSize: '1000' });
        headers = { 'x-goog-api-key': key ?? '' };
        readPage = (json) => {
          const token = json.nextPageToken;
          const names = arrayOf(json.models)
            .filter((item) => {
              const methods = field(item, 'supportedGenerationMethods');
              return !Array.isArray(methods) || methods.includes('generateContent');
            })
            .map((item) => {
              const name = field(item, 'name');
              return typeof name === 'string' ? name.replace(/^models\//, '') : name;
            });
          const next = typeof token === 'string' && token ? withQuery(root, '/models', { pageSize: '1000', pageToken: token }) : null;
          return { names, next };
        };
        break;
      case 'ollama_tags':
        first = `${ollamaApiUrl(base)}/tags`;
        headers = {};
        readPage = (json) => ({ names: arrayOf(json.models).map((item) => field(item, 'name') ?? field(item, 'model')), next: null });
        break;
    }

    const models = new Set<string>();
    let url: string | null = first;
    for (let page = 0; url && page < maxPages && models.size < maxModels; page += 1) {
      const parsed = readPage(await getJson(fetch, url, headers, provider, signal), url);
      for (const name of parsed.names) {
        if (typeof name === 'string' && name.length > 0 && name.length <= maxModelNameLength && models.size < maxModels) models.add(name);
      }
      url = parsed.next;
    }
    return { models: [...models].sort(), supportsTools: facts.supportsTools };
  } catch (error) {
    throw classifyAiError(error, { provider, signal });
  }
}
