/**
 * Stamps each incoming request with the client's address and scheme, in headers the route handlers
 * trust (`x-mailflow-client-ip`, `-proto`, `-local`). Incoming copies of those headers are always
 * overwritten, and proxy headers count only when configuration says a proxy is in front of us.
 *
 * `X-Forwarded-For` is a list each proxy appends its peer's address to, so only its right end is
 * written by proxies we trust; everything left of them is whatever the client sent. The client is
 * therefore found from the right:
 *
 * - `TRUST_PROXY=N`: N proxies stand in front of us; the client is the address the outermost one saw,
 *   the N-th entry from the right of `X-Forwarded-For` + the socket peer.
 * - `TRUST_PROXY_CIDRS=networks`: when the socket peer is in one of the networks, walk the list from
 *   the right past every address in them; the first address outside is the client.
 *
 * Every entry must be an IP address: the walk stops at one that is not, keeping the last valid hop.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { BlockList } from 'node:net';
import type { Config } from '../core/config';
import { clientIpHeader, clientLocalHeader, clientProtoHeader } from '../core/http/client-headers';
import { inNetworks, isLoopbackIp, normaliseIp, parseNetworks } from '../core/http/ip-address';

export interface ProxyTrust {
  /** Proxies in front of us (0: none), used when `networks` is null. */
  hops: number;
  /** Trusted proxy networks; when set, they decide instead of `hops`. */
  networks: BlockList | null;
}

export function proxyTrustOf(config: Pick<Config, 'TRUST_PROXY' | 'TRUST_PROXY_CIDRS'>): ProxyTrust {
  return { hops: config.TRUST_PROXY, networks: config.TRUST_PROXY_CIDRS ? parseNetworks(config.TRUST_PROXY_CIDRS) : null };
}

/** More entries than any real proxy chain; the left rest of a longer header is never read. */
const maxForwardedEntries = 32;

function headerText(header: string | string[] | undefined): string {
  return (Array.isArray(header) ? header.join(',') : (header ?? '')).slice(-4096);
}

/** The right end of `X-Forwarded-For`, nearest proxy last, as raw text entries. */
function forwardedEntries(header: string | string[] | undefined): string[] {
  return headerText(header)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .slice(-maxForwardedEntries);
}

export interface ClientAddress {
  /** The client's address as the trusted proxies saw it (or the socket peer), or null when unknown. */
  ip: string | null;
  /** True when the socket peer is a trusted proxy: the request came through one. */
  viaProxy: boolean;
}

/** Pure: who the client is, from the socket peer and `X-Forwarded-For`, under the configured trust. */
export function clientAddressOf(peerAddress: string | null | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust): ClientAddress {
  const peer = normaliseIp(peerAddress);
  const viaProxy = peer !== null && (trust.networks ? inNetworks(trust.networks, peer) : trust.hops > 0);
  if (!viaProxy) return { ip: peer, viaProxy: false };
  const chain = forwardedEntries(forwardedFor);
  // Walk from the right: each step moves to the address the current (trusted) hop received from.
  let client = peer;
  for (let step = 0; chain.length > 0; step += 1) {
    if (!trust.networks && step >= trust.hops) break;
    if (trust.networks && !inNetworks(trust.networks, client)) break;
    const next = normaliseIp(chain.pop());
    if (next === null) break;
    client = next;
  }
  return { ip: client, viaProxy: true };
}

/** The scheme the client used: the nearest trusted proxy's word (the right end of the header). */
function forwardedProto(header: string | string[] | undefined): 'http' | 'https' | null {
  const last = headerText(header).split(',').pop()?.trim().toLowerCase();
  return last === 'http' || last === 'https' ? last : null;
}

export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return name === 'localhost' || name === '[::1]' || /^127\./.test(name);
}

/**
 * A browser on this very machine calling a loopback name (http://localhost:3000 after `npm start`):
 * browsers treat that origin as secure, so the HTTPS rule lets it through. Only a real loopback
 * socket peer qualifies: never a forwarded address, never a request that came through a proxy (a
 * trusted one, or any that left a forwarding header), whatever `Host` says.
 */
function isLocalBrowser(req: IncomingMessage, peer: string | null, viaProxy: boolean): boolean {
  if (viaProxy || !isLoopbackIp(peer)) return false;
  if (req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined || req.headers['x-real-ip'] !== undefined) return false;
  return isLoopbackHost(req.headers.host);
}

/** `trust` may also be a plain on/off (tests, older callers): on means one proxy hop. */
export function stampClientOrigin(req: IncomingMessage, trustSetting: ProxyTrust | boolean): void {
  const trust = typeof trustSetting === 'boolean' ? { hops: trustSetting ? 1 : 0, networks: null } : trustSetting;
  const peer = normaliseIp(req.socket.remoteAddress);
  const { ip, viaProxy } = clientAddressOf(peer, req.headers['x-forwarded-for'], trust);
  let proto: 'http' | 'https' = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  if (viaProxy) proto = forwardedProto(req.headers['x-forwarded-proto']) ?? proto;
  if (ip) req.headers[clientIpHeader] = ip;
  else delete req.headers[clientIpHeader];
  req.headers[clientProtoHeader] = proto;
  if (isLocalBrowser(req, peer, viaProxy)) req.headers[clientLocalHeader] = '1';
  else delete req.headers[clientLocalHeader];
}
