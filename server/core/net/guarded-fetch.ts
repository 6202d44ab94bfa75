/**
 * `fetch` through the network guard, for outbound HTTP on a member's behalf (OAuth providers' APIs,
 * later the workflow engine's HTTP node). Only http and https URLs; every connection's address is
 * checked at connect time by the guard's `lookup` (so DNS rebinding cannot swap in another address
 * after a check), IP literals before the request; redirects are followed by hand (at most 5), each
 * hop checked the same way, credentials dropped when a hop leaves the original origin: `Authorization`,
 * `Cookie`, `Proxy-Authorization`, and the headers and query parameters the caller names as secret
 * (an API key header, a key in the query). A caller may also check each hop's URL before it is sent
 * (`checkHop`: a stored secret's allowed hosts), refusing it by throwing.
 */
import { Agent, fetch, Headers, type RequestInit, type Response } from 'undici';
import { guardedLookup, NetworkGuardError, resolveAllowedAddress, type GuardOptions } from './network-guard';
import { parseIpLiteral } from './ip-classify';

export interface GuardedFetchOptions extends GuardOptions {
  /** Redirects followed before giving up with `too_many_redirects`. Default 5. */
  maxRedirects?: number;
  /** False: a redirect answer is returned as it is, not followed. Default true. */
  followRedirects?: boolean;
  /** Whole exchange, all redirects included, until the last response's headers. Default 30 s. */
  timeoutMs?: number;
  /** TCP + TLS connect, per connection. Default 15 s. */
  connectTimeoutMs?: number;
  /** Called with the URL of every request before it is sent (the first and each redirect hop); throwing stops the exchange. */
  checkHop?: (url: URL) => void;
  /** More headers dropped when a hop leaves the original origin (names, any case). */
  secretHeaders?: readonly string[];
  /** Query parameters removed from a hop that leaves the original origin. */
  secretQueryParams?: readonly string[];
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const credentialHeaders = ['authorization', 'cookie', 'proxy-authorization'];

type AgentKey = `${boolean}:${number}`;
const defaultAgents = new Map<AgentKey, Agent>();
const customAgents = new WeakMap<object, Map<AgentKey, Agent>>();

/** An undici dispatcher whose every connection resolves its host through the guard. */
export function guardedAgent(options: GuardOptions & { connectTimeoutMs?: number }): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(options), timeout: options.connectTimeoutMs ?? 15_000 },
  });
}

function agentFor(options: GuardedFetchOptions): Agent {
  const key: AgentKey = `${options.allowPrivate}:${options.connectTimeoutMs ?? 15_000}`;
  let agents = defaultAgents;
  // An allowAddress function is made per lookup by its callers (the HTTP node's capability): it names the agent.
  const owner = options.allowAddress ?? options.lookup;
  if (owner) {
    agents = customAgents.get(owner) ?? new Map();
    customAgents.set(owner, agents);
  }
  let agent = agents.get(key);
  if (!agent) {
    agent = guardedAgent(options);
    agents.set(key, agent);
  }
  return agent;
}

function checkedUrl(input: string | URL, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    throw new NetworkGuardError('unsupported_url', 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new NetworkGuardError('unsupported_url', 'Only http and https URLs are allowed.');
  }
  return url;
}

/** A body that can be sent again on a 307/308 hop. */
function isReplayable(body: RequestInit['body']): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof URLSearchParams;
}

/** The guard's refusal when undici wrapped it (`TypeError: fetch failed` with the cause inside). */
function unwrapGuardError(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth += 1) {
    if (current instanceof NetworkGuardError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return error;
}

/**
 * Like `fetch(url, init)`, refusing what the guard refuses (NetworkGuardError: `unsupported_url`,
 * `host_not_found`, `blocked_address`, `too_many_redirects`). `init.redirect` is ignored: redirects are
 * always followed here, hop by hop. Other network failures are undici's own errors.
 */
export async function guardedFetch(input: string | URL, init: RequestInit = {}, options: GuardedFetchOptions): Promise<Response> {
  const maxRedirects = options.maxRedirects ?? 5;
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 30_000)];
  if (init.signal) signals.push(init.signal as AbortSignal);
  const signal = AbortSignal.any(signals);
  const dispatcher = agentFor(options);

  let url = checkedUrl(input);
  const origin = url.origin;
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);

  const droppedHeaders = [...credentialHeaders, ...(options.secretHeaders ?? [])];
  for (let hop = 0; ; hop += 1) {
    options.checkHop?.(url);
    // net.connect skips `lookup` for an IP literal: check those here (names are checked at connect).
    if (parseIpLiteral(url.hostname)) await resolveAllowedAddress(url.hostname, options);
    let response: Response;
    try {
      response = await fetch(url, { ...init, method, body, headers, redirect: 'manual', signal, dispatcher });
    } catch (error) {
      throw unwrapGuardError(error);
    }
    const location = response.headers.get('location');
    if (!redirectStatuses.has(response.status) || location === null || options.followRedirects === false) return response;
    if (hop >= maxRedirects) {
      await response.body?.cancel().catch(() => {});
      throw new NetworkGuardError('too_many_redirects', `More than ${maxRedirects} redirects.`);
    }
    const next = checkedUrl(location, url);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    } else if (!isReplayable(body)) {
      return response; // a streamed body cannot be sent twice: the caller sees the redirect
    }
    await response.body?.cancel().catch(() => {});
    if (next.origin !== origin) {
      for (const name of droppedHeaders) headers.delete(name);
      // Only touched when present: rewriting the query re-encodes the other parameters.
      for (const name of options.secretQueryParams ?? []) if (next.searchParams.has(name)) next.searchParams.delete(name);
    }
    url = next;
  }
}
