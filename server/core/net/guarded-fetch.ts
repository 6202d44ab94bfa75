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

/** One exchange of the hop loop, as the transport answered it. */
export interface Hop<Answer> {
  status: number;
  location: string | null;
  /** Drops the body unread (a redirect followed, a refused exchange). */
  discard(): Promise<void>;
  answer: Answer;
}

/** The request of one hop, as the loop has made it (method, body and headers change along redirects). */
export interface HopRequest<Body> {
  url: URL;
  method: string;
  body: Body | undefined;
  headers: Headers;
  signal: AbortSignal;
  dispatcher: Agent;
}

/**
 * The guard's redirect loop over any transport (`send`): every hop's URL checked (`checkHop`, IP literals), at most
 * `maxRedirects` followed, 303 and a POST's 301/302 turned into a GET without body, credentials dropped when a hop
 * leaves the original origin, a body that cannot be sent twice not followed. Answers the last hop's answer.
 */
export async function followGuardedHops<Body, Answer>(
  input: string | URL,
  init: { method?: string; body?: Body; headers?: ConstructorParameters<typeof Headers>[0]; signal?: AbortSignal | null },
  options: GuardedFetchOptions,
  send: (request: HopRequest<Body>) => Promise<Hop<Answer>>,
  isReplayableBody: (body: Body | undefined) => boolean,
): Promise<Answer> {
  const maxRedirects = options.maxRedirects ?? 5;
  const signals = [AbortSignal.timeout(options.timeoutMs ?? 30_000)];
  if (init.signal) signals.push(init.signal);
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
    let sent: Hop<Answer>;
    try {
      sent = await send({ url, method, body, headers, signal, dispatcher });
    } catch (error) {
      throw unwrapGuardError(error);
    }
    if (!redirectStatuses.has(sent.status) || sent.location === null || options.followRedirects === false) return sent.answer;
    if (hop >= maxRedirects) {
      await sent.discard().catch(() => {});
      throw new NetworkGuardError('too_many_redirects', `More than ${maxRedirects} redirects.`);
    }
    const next = checkedUrl(sent.location, url);
    if (sent.status === 303 || ((sent.status === 301 || sent.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers.delete('content-type');
      headers.delete('content-length');
    } else if (!isReplayableBody(body)) {
      return sent.answer; // a streamed body cannot be sent twice: the caller sees the redirect
    }
    await sent.discard().catch(() => {});
    if (next.origin !== origin) {
      for (const name of droppedHeaders) headers.delete(name);
      // Only touched when present: rewriting the query re-encodes the other parameters.
      for (const name of options.secretQueryParams ?? []) if (next.searchParams.has(name)) next.searchParams.delete(name);
    }
    url = next;
  }
}

/**
 * Like `fetch(url, init)`, refusing what the guard refuses (NetworkGuardError: `unsupported_url`,
 * `host_not_found`, `blocked_address`, `too_many_redirects`). `init.redirect` is ignored: redirects are
 * always followed here, hop by hop (followGuardedHops). Other network failures are undici's own errors.
 */
export async function guardedFetch(input: string | URL, init: RequestInit = {}, options: GuardedFetchOptions): Promise<Response> {
  return followGuardedHops<RequestInit['body'], Response>(
    input,
    { method: init.method, body: init.body, headers: init.headers as ConstructorParameters<typeof Headers>[0], signal: init.signal as AbortSignal | null | undefined },
    options,
    async ({ url, method, body, headers, signal, dispatcher }) => {
      const response = await fetch(url, { ...init, method, body, headers, redirect: 'manual', signal, dispatcher });
      return { status: response.status, location: response.headers.get('location'), discard: async () => void (await response.body?.cancel()), answer: response };
    },
    isReplayable,
  );
}
