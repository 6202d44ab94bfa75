/**
 * The network guard: every outbound connection the service opens on a member's behalf (IMAP, SMTP,
 * provider HTTP, later the workflow engine's HTTP node) asks here which address to connect to. A host
 * is resolved once (all its addresses); when ANY of them is loopback, private, link-local, a cloud
 * metadata endpoint or otherwise not public (server/core/net/ip-classify.ts), it is refused, so
 * connecting a mailbox or calling a URL cannot reach the instance's internal network. The caller then
 * connects to the returned address itself (TLS still verifies the original host name, sent as
 * servername), so a second DNS answer cannot swap in another address (DNS rebinding).
 *
 * Private hosts become reachable when the instance allows them (`MAIL_ALLOW_PRIVATE_HOSTS=1`, for
 * self-hosted mail servers on the local network; the tests run that way). Metadata, unspecified,
 * multicast, broadcast and reserved addresses never are.
 *
 * Errors carry a typed `reason` and a message safe to show: it never names the resolved address.
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { domainToASCII } from 'node:url';
import { config } from '../config';
import { classifyIp, isKindAllowed, parseIpLiteral, type AddressKind } from './ip-classify';

export type GuardReason = 'host_not_found' | 'blocked_address' | 'unsupported_url' | 'too_many_redirects';

export class NetworkGuardError extends Error {
  readonly reason: GuardReason;
  constructor(reason: GuardReason, message: string) {
    super(message);
    this.name = 'NetworkGuardError';
    this.reason = reason;
  }
}

export function isNetworkGuardError(error: unknown): error is NetworkGuardError {
  return error instanceof NetworkGuardError;
}

export interface ResolvedAddress {
  /** The address to connect to. */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all allowed, in resolver order (`address` is the first). */
  addresses: { address: string; family: 4 | 6 }[];
  /** Whether `host` was an IP literal (then TLS has no name to send as servername). */
  literal: boolean;
}

export interface GuardOptions {
  allowPrivate: boolean;
  /** DNS resolution; tests substitute their own. Default `dns.promises.lookup(host, { all: true })`. */
  lookup?: (host: string) => Promise<LookupAddress[]>;
  /** Longest wait for DNS; past it the host counts as not found. Default 10 s. */
  timeoutMs?: number;
  /**
   * Opens specific private addresses when `allowPrivate` is false (the HTTP node's allow-list):
   * asked with the host as written (lower-case name or literal) and each of its addresses. Only the
   * "private" kinds can be opened this way; metadata, unspecified, multicast, broadcast and reserved
   * addresses never are.
   */
  allowAddress?: (host: string, address: string) => boolean;
}

function addressAllowed(host: string, address: string, options: GuardOptions): boolean {
  const kind = classifyIp(address);
  if (isKindAllowed(kind, options.allowPrivate)) return true;
  return options.allowAddress !== undefined && isKindAllowed(kind, true) && options.allowAddress(host, address);
}

/** `MAIL_ALLOW_PRIVATE_HOSTS` of the instance configuration. */
export function allowPrivateHosts(): boolean {
  return config().MAIL_ALLOW_PRIVATE_HOSTS;
}

const maxHostLength = 253;

const blockedMessage = 'The host resolves to an address this instance does not connect to.';
const notFoundMessage = 'The host name could not be resolved.';

function blocked(): NetworkGuardError {
  return new NetworkGuardError('blocked_address', blockedMessage);
}

function notFound(): NetworkGuardError {
  return new NetworkGuardError('host_not_found', notFoundMessage);
}

function familyOf(address: string): 4 | 6 {
  return address.includes(':') ? 6 : 4;
}

async function defaultLookup(host: string): Promise<LookupAddress[]> {
  return dns.lookup(host, { all: true, verbatim: true });
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(notFound()), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The kind of every address, for a caller that wants to say more in its own logs (never to a member). */
export function addressKind(address: string): AddressKind {
  return classifyIp(address);
}

/**
 * The address to connect to for `host` (a name or an IP literal in any spelling), or a
 * NetworkGuardError: `host_not_found` (no such name, no address, DNS failure or timeout) or
 * `blocked_address` (the literal, or any resolved address, is not allowed).
 */
export async function resolveAllowedAddress(host: string, options: GuardOptions): Promise<ResolvedAddress> {
  const text = host.trim();
  if (text.length === 0 || text.length > maxHostLength + 2) throw notFound();

  const literal = parseIpLiteral(text);
  if (literal) {
    if (!addressAllowed(literal.address, literal.address, options)) throw blocked();
    return { address: literal.address, family: literal.family, addresses: [{ ...literal }], literal: true };
  }
  // A name: letters (any script), digits, hyphens, underscores and dots; IDNs become punycode.
  if (!/^[\p{L}\p{N}\p{M}._-]+$/u.test(text)) throw notFound();
  const name = domainToASCII(text).replace(/\.$/, '');
  if (name.length === 0 || name.length > maxHostLength || !/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(name)) throw notFound();

  let answers: LookupAddress[];
  try {
    answers = await withTimeout((options.lookup ?? defaultLookup)(name), options.timeoutMs ?? 10_000);
  } catch {
    // ENOTFOUND, ENODATA, EAI_AGAIN, a timeout: for the member all of them mean the name did not resolve.
    throw notFound();
  }
  const addresses: { address: string; family: 4 | 6 }[] = [];
  for (const answer of answers) {
    const parsed = parseIpLiteral(answer.address);
    // An answer that is not an address at all is as suspicious as a private one.
    if (!parsed || !addressAllowed(name, parsed.address, options)) throw blocked();
    addresses.push({ address: answer.address, family: familyOf(answer.address) });
  }
  if (addresses.length === 0) throw notFound();
  return { address: addresses[0].address, family: addresses[0].family, addresses, literal: false };
}

/**
 * A `lookup` for `net.connect`/`tls.connect` (and undici's connector) that resolves through the guard:
 * the socket connects to an address that passed the check, in the same step. Answers one address, or
 * all of them when the caller asks (`autoSelectFamily`).
 */
export function guardedLookup(options: GuardOptions): LookupFunction {
  return ((hostname: string, lookupOptions: { all?: boolean } | number | undefined, callback: (...args: unknown[]) => void) => {
    const all = typeof lookupOptions === 'object' && lookupOptions !== null && lookupOptions.all === true;
    resolveAllowedAddress(hostname, options).then(
      (resolved) => {
        if (all) callback(null, resolved.addresses);
        else callback(null, resolved.address, resolved.family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}
