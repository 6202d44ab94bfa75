/**
 * The HTTP node's capability: requests through the network guard (server/core/net) with the
 * guard's own rules, NOT the mail flag `MAIL_ALLOW_PRIVATE_HOSTS`: private addresses are refused
 * unless `HTTP_NODE_ALLOW_HOSTS` names the host or a CIDR holding the address (metadata and other
 * never-reachable addresses stay refused). Every connection resolves and checks its host at connect
 * time (the checked address is the one connected to), IP literals are checked before the request,
 * every redirect hop is checked again, and the response body is read up to `maxResponseBytes`.
 * A request naming an `http_generic` connection gets its secret here, bound to the connection's hosts
 * (./http-credential.ts); a simulated run sends nothing and answers what it would have sent.
 */
import type { LookupAddress } from 'node:dns';
import type { Readable } from 'node:stream';
import { config } from '../core/config';
import { allowAddressFor, parseAllowHosts } from '../core/net/allow-list';
import { discardBody, guardedRequest } from '../core/net/guarded-request';
import { isNetworkGuardError } from '../core/net/network-guard';
import { maskSecrets } from '../engine/expressions';
import { fail, NodeFailure, RateLimited } from '../engine/contract/failures';
import { applySecret, hopChecker, hostsFor, maskerOf, simulatedPlacement, withQueryParam, type AppliedSecret, type HttpCredentialSource } from './http-credential';
import type { HttpAnswer, HttpCapability } from '../engine/contract/capabilities';

export interface HttpCapabilityOptions {
  simulated: boolean;
  /** Comma-separated names or CIDRs; default HTTP_NODE_ALLOW_HOSTS. */
  allowHosts?: string;
  /** DNS resolution (tests substitute their own). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
  /** Whole exchange until the response headers (default 30 s) and per connection (default 15 s). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Where the connections a request names come from (the run member's; unit tests give their own). */
  credentials?: HttpCredentialSource;
}

// The allow list's grammar is the network kernel's (the llm domain reads LLM_ALLOW_HOSTS with it too).
export { parseAllowHosts };

export const httpCapabilityBounds = { maxRedirects: 5, maxRetryAfterMs: 24 * 3_600_000 } as const;

/** When a 429/503 asks to come back: Retry-After in seconds or as an HTTP date, bounded. */
export function retryAfterOf(header: string | null, now = Date.now()): Date | null {
  if (header === null) return null;
  const text = header.trim();
  let at: number;
  if (/^\d+$/.test(text)) at = now + Number(text) * 1000;
  else {
    at = Date.parse(text);
    if (Number.isNaN(at)) return null;
  }
  return new Date(Math.min(Math.max(at, now), now + httpCapabilityBounds.maxRetryAfterMs));
}

/** The answer's body as text, refused past `maxBytes` (counted decoded: a small compressed bomb is refused too). */
async function readBounded(body: Readable, maxBytes: number, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of body) {
      if (signal.aborted) throw signal.reason;
      const bytes = chunk as Buffer;
      total += bytes.byteLength;
      if (total > maxBytes) throw fail.permanent('http_response_too_large', { details: { maxResponseBytes: maxBytes } });
      chunks.push(bytes);
    }
  } finally {
    // Read to its end this does nothing; left early (too large, aborted, cut off) the rest is dropped unread.
    discardBody(body);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const lookups = new WeakMap<object, Map<string, (host: string, address: string) => boolean>>();
const defaultLookupKey = {};

/** One allowAddress function per (lookup, allow-list text): the guard caches its agents by it. */
function sharedAllowAddress(lookup: object | undefined, text: string): (host: string, address: string) => boolean {
  const owner = lookup ?? defaultLookupKey;
  const byText = lookups.get(owner) ?? new Map();
  lookups.set(owner, byText);
  let allow = byText.get(text);
  if (!allow) {
    allow = allowAddressFor(parseAllowHosts(text));
    byText.set(text, allow);
  }
  return allow;
}

/** The request URL, parsed as the guard would refuse it. */
function urlOf(text: string): URL {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // refused below
  }
  throw fail.permanent('http_blocked', { message: 'Only valid http and https URLs can be requested.', details: { reason: 'unsupported_url' } });
}

/** Headers as a test run reports them: values under secret-looking names masked, as in a step's input. */
function reportedHeaders(headers: Record<string, string>): Record<string, string> {
  const pairs = maskSecrets(Object.keys(headers).map((name) => ({ name, value: headers[name] }))) as { name: string; value: string }[];
  const out: Record<string, string> = {};
  for (const pair of pairs) Object.defineProperty(out, pair.name, { value: pair.value, enumerable: true, writable: true, configurable: true });
  return out;
}

type HttpInput = Parameters<HttpCapability['request']>[0];

/** The secret of the connection the request names, applied (live) or only placed (simulated: answered at once). */
async function withCredential(options: HttpCapabilityOptions, input: HttpInput): Promise<{ answer: HttpAnswer } | { url: string; headers: Record<string, string>; hosts: string[]; applied: AppliedSecret }> {
  if (!options.credentials) throw fail.permanent('credential_missing');
  const credential = await options.credentials.load(input.credentialId!);
  const url = urlOf(input.url);
  const hosts = await hostsFor(credential, url, options.simulated);
  if (options.simulated) {
    const placement = simulatedPlacement(credential, url);
    const headers = { ...reportedHeaders(input.headers), ...placement.headers };
    return { answer: { status: 200, headers: {}, body: '', url: placement.url, request: { method: input.method, url: placement.url, headers } } };
  }
  const applied = applySecret(credential.open());
  const target = applied.query ? withQueryParam(url, applied.query.name, applied.query.value).href : input.url;
  return { url: target, headers: { ...input.headers, ...applied.headers }, hosts, applied };
}

export function createHttpCapability(options: HttpCapabilityOptions): HttpCapability {
  return {
    async request(input) {
      let target = input.url;
      let headers = input.headers;
      let credential: { hosts: string[]; applied: AppliedSecret } | null = null;
      if (input.credentialId !== undefined) {
        const prepared = await withCredential(options, input);
        if ('answer' in prepared) return prepared.answer;
        ({ url: target, headers } = prepared);
        credential = { hosts: prepared.hosts, applied: prepared.applied };
      }
      if (options.simulated) return { status: 200, headers: {}, body: '', url: input.url, request: { method: input.method, url: input.url, headers: reportedHeaders(input.headers) } };
      const mask = maskerOf(credential?.applied.forms ?? []);
      const allowText = options.allowHosts ?? config().HTTP_NODE_ALLOW_HOSTS ?? '';
      const allowAddress = sharedAllowAddress(options.lookup, allowText);
      let response;
      try {
        response = await guardedRequest(
          target,
          { method: input.method, headers, body: input.body, signal: input.signal },
          {
            allowPrivate: false,
            allowAddress,
            lookup: options.lookup,
            maxRedirects: httpCapabilityBounds.maxRedirects,
            followRedirects: input.followRedirects,
            timeoutMs: options.timeoutMs,
            connectTimeoutMs: options.connectTimeoutMs,
            ...(credential
              ? { checkHop: hopChecker(credential.hosts), secretHeaders: credential.applied.secretHeaders, secretQueryParams: credential.applied.secretQueryParams }
              : {}),
          },
        );
      } catch (error) {
        if (input.signal.aborted) throw input.signal.reason;
        if (error instanceof NodeFailure) throw error;
        if (isNetworkGuardError(error)) {
          if (error.reason === 'too_many_redirects') throw fail.permanent('http_too_many_redirects');
          if (error.reason === 'host_not_found') throw fail.transient('http_error', { message: 'The host name could not be resolved.' });
          throw fail.permanent('http_blocked', { message: error.message, details: { reason: error.reason } });
        }
        throw fail.transient('http_error', { message: 'The request could not be sent or got no answer.' });
      }
      if (response.status === 429 || response.status === 503) {
        const retryAt = retryAfterOf(response.headers['retry-after'] ?? null);
        if (retryAt) {
          discardBody(response.body);
          throw new RateLimited(retryAt);
        }
      }
      let body: string;
      try {
        body = await readBounded(response.body, input.maxResponseBytes, input.signal);
      } catch (error) {
        if (error instanceof NodeFailure) throw error;
        if (input.signal.aborted) throw input.signal.reason;
        throw fail.transient('http_error', { message: 'The response was cut off.' });
      }
      const responseHeaders: Record<string, string> = {};
      for (const name of Object.keys(response.headers)) {
        Object.defineProperty(responseHeaders, name, { value: mask(response.headers[name]!), enumerable: true, writable: true, configurable: true });
      }
      return { status: response.status, headers: responseHeaders, body: mask(body), url: mask(response.url || target) };
    },
  };
}
