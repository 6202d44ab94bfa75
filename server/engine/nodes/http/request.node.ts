/**
 * HTTP request through the network guard (ctx.capabilities.http: DNS checked, redirects re-checked,
 * response bounded). An `http_generic` connection adds its header, bearer token, basic auth or query
 * parameter: the capability does it, only towards the connection's hosts, and masks every form of the
 * secret in the answer, so the step's data never holds it (this executor never sees it). A test run
 * sends nothing and shows what would be sent (`data.request`, secrets masked). Statuses: 2xx/3xx done; 429 and 503 with Retry-After postpone (the capability throws
 * RateLimited); a 429 without it is temporary `http_status`; another 4xx is permanent `http_status`;
 * 5xx temporary `http_error`.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';
import { ownKeys } from './own-keys';

export const httpBounds = { defaultResponseBytes: 1_000_000, maxResponseBytes: 10_000_000, maxRedirects: 5 } as const;

const headerName = z.string().min(1).max(128).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'An HTTP header name.');
const pair = (what: string) =>
  z.strictObject({
    name: (what === 'header' ? headerName : z.string().min(1).max(256)).describe(`The ${what} name.`),
    value: z.string().max(8_192).describe(`The ${what} value (text or an expression).`),
  });

function withQuery(url: string, query: { name: string; value: string }[]): string {
  if (query.length === 0) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw fail.permanent('invalid_parameter', { message: 'params.url is not a valid URL.', details: { path: 'params.url' } });
  }
  for (const entry of query) parsed.searchParams.append(entry.name, entry.value);
  return parsed.toString();
}

export const httpRequestNode = defineNode({
  type: 'http.request',
  version: 1,
  category: 'http',
  label: { en: 'HTTP request', fr: 'Requête HTTP' },
  description: {
    en: 'Calls a URL (GET, POST, …) with headers, a body and optionally a stored connection; private addresses are refused.',
    fr: 'Appelle une URL (GET, POST, …) avec des en-têtes, un corps et éventuellement une connexion enregistrée ; les adresses privées sont refusées.',
  },
  params: z.strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET').describe('The HTTP method.'),
    url: z.string().min(1).max(4_096).describe('The URL (http or https).'),
    query: z.array(pair('query parameter')).max(50).default([]).describe('Query parameters added to the URL (at most 50).'),
    headers: z.array(pair('header')).max(50).default([]).describe('Request headers (at most 50).'),
    body: z
      .discriminatedUnion('type', [
        z.strictObject({ type: z.literal('none').describe('No body.') }),
        z.strictObject({ type: z.literal('json').describe('A JSON body.'), json: z.unknown().describe('The value sent as JSON.') }),
        z.strictObject({
          type: z.literal('text').describe('A text body.'),
          text: z.string().max(1_000_000).describe('The text sent.'),
          contentType: z.string().min(1).max(200).default('text/plain; charset=utf-8').describe('Its content type.'),
        }),
      ])
      .default({ type: 'none' })
      .describe('The request body.'),
    credentialId: z
      .uuid()
      .optional()
      .describe('An `http_generic` connection whose secret is added (header, bearer token, basic auth or query parameter); only sent to the connection’s allowed hosts, redirects included, and dropped when a redirect changes origin.'),
    maxResponseBytes: z
      .number()
      .int()
      .min(1)
      .max(httpBounds.maxResponseBytes)
      .default(httpBounds.defaultResponseBytes)
      .describe('The largest response body accepted (bytes; default 1 MB, at most 10 MB).'),
    followRedirects: z.boolean().default(true).describe('Follow redirects (at most 5, each re-checked by the network guard).'),
    responseType: z.enum(['json', 'text']).default('json').describe('Read the response as JSON (falls back to text when it is not JSON) or as text.'),
  }),
  outputs: ['main'],
  effect: 'external',
  requires: ['http'],
  scopes: [],
  parameterScopes: { credentialId: ['connections:read'] },
  // No retry defaults of its own: the built-in ones (3 attempts, 5 s, 2 min per attempt), as the spec's
  // table gives node-type defaults to AI nodes only; a node sets its own `timeoutMs` when it needs to.
  async execute({ params, capabilities, signal, execution }) {
    const headers: Record<string, string> = {};
    for (const header of params.headers) headers[header.name.toLowerCase()] = header.value;
    let body: string | undefined;
    if (params.body.type === 'json') {
      body = JSON.stringify(params.body.json ?? null);
      headers['content-type'] ??= 'application/json';
    } else if (params.body.type === 'text') {
      body = params.body.text;
      headers['content-type'] ??= params.body.contentType;
    }
    const response = await capabilities.http.request({
      method: params.method,
      url: withQuery(params.url, params.query),
      headers,
      body: params.method === 'GET' || params.method === 'HEAD' ? undefined : body,
      maxResponseBytes: params.maxResponseBytes,
      followRedirects: params.followRedirects,
      signal,
      ...(params.credentialId ? { credentialId: params.credentialId } : {}),
    });
    if (response.status >= 500) throw fail.transient('http_error', { message: `The server answered ${response.status}.`, details: { status: response.status } });
    // A 429 without Retry-After (with one, the capability postponed the step): retried as temporary.
    if (response.status === 429) throw fail.transient('http_status', { message: 'The server answered 429 (too many requests).', details: { status: 429 } });
    if (response.status >= 400) throw fail.permanent('http_status', { message: `The server answered ${response.status}.`, details: { status: response.status } });
    let parsed: unknown = response.body;
    if (params.responseType === 'json' && response.body.length > 0) {
      try {
        parsed = JSON.parse(response.body) as unknown;
      } catch {
        parsed = response.body;
      }
    }
    const responseHeaders: Record<string, string> = {};
    for (const key of ownKeys(response.headers)) if (key !== 'set-cookie') responseHeaders[key] = response.headers[key];
    return {
      data: { status: response.status, headers: responseHeaders, body: parsed, url: response.url, ...(response.request ? { request: response.request } : {}) },
      effects: [{ kind: 'http', description: `${params.method} ${new URL(response.url).host}`, ...(execution.simulated ? { simulated: true } : {}) }],
    };
  },
});
