/**
 * The HTTP node's capability: requests through the network guard (server/core/net) with the
 * guard's own rules, NOT the mail flag `MAIL_ALLOW_PRIVATE_HOSTS`: private addresses are refused
 * unless `HTTP_NODE_ALLOW_HOSTS` names the host or a CIDR holding the address (metadata and other
 * never-reachable addresses stay refused). Every connection resolves and checks its host at connect
 * time (the checked address is the one connected to), IP literals are checked before the request,
 * every redirect hop is checked again, and the response body is read up to `maxResponseBytes`.
 */
import type { LookupAddress } from 'node:dns';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';
import { config } from '../../core/config';
import { guardedFetch } from '../../core/net/guarded-fetch';
import { isNetworkGuardError } from '../../core/net/network-guard';
import { fail, NodeFailure, RateLimited } from '../run/failures';
import type { HttpCapability } from './types';

export interface HttpCapabilityOptions {
  simulated: boolean;
  /** Comma-separated names or CIDRs; default HTTP_NODE_ALLOW_HOSTS. */
  allowHosts?: string;
  /** DNS resolution (tests substitute their own). */
  lookup?: (host: string) => Promise<LookupAddress[]>;
  /** Whole exchange until the response headers (default 30 s) and per connection (default 15 s). */
  timeoutMs?: number;
  connectTimeoutMs?: number;
}

export const httpCapabilityBounds = { maxRedirects: 5, maxRetryAfterMs: 24 * 3_600_000 } as const;

interface AllowList {
  names: Set<string>;
  networks: BlockList;
  empty: boolean;
}

export function parseAllowHosts(text: string | undefined): AllowList {
  const names = new Set<string>();
  const networks = new BlockList();
  let entries = 0;
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [network, prefixText] = entry.split('/');
    const bare = network.replace(/^\[|\]$/g, '');
    if (isIPv4(bare) || isIPv6(bare)) {
      const family = isIPv4(bare) ? 'ipv4' : 'ipv6';
      const prefix = prefixText === undefined ? (family === 'ipv4' ? 32 : 128) : Number(prefixText);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 'ipv4' ? 32 : 128)) continue;
      networks.addSubnet(bare, prefix, family);
      entries += 1;
    } else if (prefixText === undefined && /^[a-z0-9_.-]+$/.test(domainToASCII(entry))) {
      names.add(domainToASCII(entry).replace(/\.$/, ''));
      entries += 1;
    }
  }
  return { names, networks, empty: entries === 0 };
}

export function allowAddressFor(list: AllowList): (host: string, address: string) => boolean {
  return (host, address) => {
    if (list.names.has(host.toLowerCase().replace(/\.$/, ''))) return true;
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    return list.networks.check(address, family);
  };
}

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

async function readBounded(body: ReadableStream<Uint8Array> | null, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw fail.permanent('http_response_too_large', { details: { maxResponseBytes: maxBytes } });
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
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

export function createHttpCapability(options: HttpCapabilityOptions): HttpCapability {
  return {
    async request(input) {
      if (options.simulated) return { status: 200, headers: {}, body: '', url: input.url };
      const allowText = options.allowHosts ?? config().HTTP_NODE_ALLOW_HOSTS ?? '';
      const allowAddress = sharedAllowAddress(options.lookup, allowText);
      let response;
      try {
        response = await guardedFetch(
          input.url,
          { method: input.method, headers: input.headers, body: input.body, signal: input.signal },
          {
            allowPrivate: false,
            allowAddress,
            lookup: options.lookup,
            maxRedirects: httpCapabilityBounds.maxRedirects,
            followRedirects: input.followRedirects,
            timeoutMs: options.timeoutMs,
            connectTimeoutMs: options.connectTimeoutMs,
          },
        );
      } catch (error) {
        if (input.signal.aborted) throw input.signal.reason;
        if (isNetworkGuardError(error)) {
          if (error.reason === 'too_many_redirects') throw fail.permanent('http_too_many_redirects');
          if (error.reason === 'host_not_found') throw fail.transient('http_error', { message: 'The host name could not be resolved.' });
          throw fail.permanent('http_blocked', { message: error.message, details: { reason: error.reason } });
        }
        throw fail.transient('http_error', { message: 'The request could not be sent or got no answer.' });
      }
      if (response.status === 429 || response.status === 503) {
        const retryAt = retryAfterOf(response.headers.get('retry-after'));
        if (retryAt) {
          await response.body?.cancel().catch(() => {});
          throw new RateLimited(retryAt);
        }
      }
      let body: string;
      try {
        body = await readBounded(response.body as ReadableStream<Uint8Array> | null, input.maxResponseBytes, input.signal);
      } catch (error) {
        if (error instanceof NodeFailure) throw error;
        if (input.signal.aborted) throw input.signal.reason;
        throw fail.transient('http_error', { message: 'The response was cut off.' });
      }
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        Object.defineProperty(headers, name, { value, enumerable: true, writable: true, configurable: true });
      });
      return { status: response.status, headers, body, url: response.url || input.url };
    },
  };
}
