/**
 * What kind of address an IP is, for the network guard (server/core/net/network-guard.ts), and
 * host text that is an IP literal in any spelling the system resolver accepts. Pure; tested on its own.
 *
 * Only `public` addresses are reachable by default. The "private" kinds (loopback, RFC 1918, CGNAT,
 * link-local, unique-local, site-local) become reachable when the instance allows private hosts
 * (`MAIL_ALLOW_PRIVATE_HOSTS=1`, for self-hosted mail servers). Cloud metadata endpoints, unspecified,
 * multicast, broadcast, documentation and reserved addresses are never reachable.
 *
 * IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address they carry.
 */
import { isIPv6 } from 'node:net';
import { ipv6Groups } from '../http/ip-address';

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'shared' // RFC 6598 carrier-grade NAT, 100.64.0.0/10
  | 'link_local'
  | 'unique_local'
  | 'site_local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

const privateKinds: ReadonlySet<AddressKind> = new Set(['loopback', 'private', 'shared', 'link_local', 'unique_local', 'site_local']);

/** Whether an address of this kind may be connected to. */
export function isKindAllowed(kind: AddressKind, allowPrivate: boolean): boolean {
  return kind === 'public' || (allowPrivate && privateKinds.has(kind));
}

export interface IpLiteral {
  /** Canonical text: dotted quad, or lower-case IPv6 without zone. */
  address: string;
  family: 4 | 6;
}

type Range = readonly [network: bigint, prefix: number, kind: AddressKind];

function v4(text: string): bigint {
  return BigInt(text.split('.').reduce((value, part) => value * 256 + Number(part), 0));
}

// First match wins: single addresses before the networks that contain them.
const ipv4Ranges: readonly Range[] = [
  [v4('169.254.169.254'), 32, 'metadata'], // AWS, GCP, Azure, OpenStack, DigitalOcean...
  [v4('100.100.100.200'), 32, 'metadata'], // Alibaba Cloud
  [v4('168.63.129.16'), 32, 'metadata'], // Azure wire server (a public-looking address only Azure hosts reach)
  [v4('192.0.0.192'), 32, 'metadata'], // Oracle Cloud
  [v4('255.255.255.255'), 32, 'broadcast'],
  [v4('0.0.0.0'), 8, 'unspecified'], // "this network"; connecting to 0.0.0.0 reaches the local host
  [v4('127.0.0.0'), 8, 'loopback'],
  [v4('10.0.0.0'), 8, 'private'],
  [v4('172.16.0.0'), 12, 'private'],
  [v4('192.168.0.0'), 16, 'private'],
  [v4('100.64.0.0'), 10, 'shared'],
  [v4('169.254.0.0'), 16, 'link_local'],
  [v4('192.0.2.0'), 24, 'documentation'],
  [v4('198.51.100.0'), 24, 'documentation'],
  [v4('203.0.113.0'), 24, 'documentation'],
  [v4('192.0.0.0'), 24, 'reserved'], // IETF protocol assignments
  [v4('192.88.99.0'), 24, 'reserved'], // 6to4 relay anycast (deprecated)
  [v4('198.18.0.0'), 15, 'reserved'], // benchmarking
  [v4('224.0.0.0'), 4, 'multicast'],
  [v4('240.0.0.0'), 4, 'reserved'],
];

function inRange(value: bigint, bits: number, network: bigint, prefix: number): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === network >> shift;
}

function classifyIpv4Value(value: bigint): AddressKind {
  for (const [network, prefix, kind] of ipv4Ranges) if (inRange(value, 32, network, prefix)) return kind;
  return 'public';
}

function v6(text: string): bigint {
  return (ipv6Groups(text) ?? []).reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

const ipv6Ranges: readonly Range[] = [
  [v6('fd00:ec2::254'), 128, 'metadata'], // AWS over IPv6
  [v6('::'), 128, 'unspecified'],
  [v6('::1'), 128, 'loopback'],
  [v6('64:ff9b:1::'), 48, 'private'], // local-use NAT64 (RFC 8215)
  [v6('100::'), 64, 'reserved'], // discard-only
  [v6('2001:db8::'), 32, 'documentation'],
  [v6('2001::'), 23, 'reserved'], // IETF protocol assignments, Teredo (2001::/32, IPv4 hidden) included
  [v6('fc00::'), 7, 'unique_local'],
  [v6('fe80::'), 10, 'link_local'],
  [v6('fec0::'), 10, 'site_local'],
  [v6('ff00::'), 8, 'multicast'],
];

const ipv4Mapped = v6('::ffff:0:0');
const ipv4Translated = v6('::ffff:0:0:0');
const nat64 = v6('64:ff9b::');
const sixToFour = v6('2002::');
const globalUnicast = v6('2000::');
const low32 = (1n << 32n) - 1n;

function classifyIpv6Value(value: bigint): AddressKind {
  // Forms that carry an IPv4 address are judged by it.
  if (inRange(value, 128, ipv4Mapped, 96) || inRange(value, 128, ipv4Translated, 96) || inRange(value, 128, nat64, 96)) {
    return classifyIpv4Value(value & low32);
  }
  if (inRange(value, 128, sixToFour, 16)) return classifyIpv4Value((value >> 80n) & low32);
  for (const [network, prefix, kind] of ipv6Ranges) if (inRange(value, 128, network, prefix)) return kind;
  // Anything else outside 2000::/3 (IPv4-compatible ::/96 included) is not global unicast.
  return inRange(value, 128, globalUnicast, 3) ? 'public' : 'reserved';
}

/** The kind of a literal address; anything that is not an address at all is `reserved`. */
export function classifyIp(ip: string): AddressKind {
  const literal = parseIpLiteral(ip);
  if (!literal) return 'reserved';
  return literal.family === 4 ? classifyIpv4Value(v4(literal.address)) : classifyIpv6Value(v6(literal.address));
}

/**
 * One IPv4 part as inet_aton reads it: decimal, octal with a leading 0, hex with 0x. The system
 * resolver and WHATWG URLs both accept these, so `0177.0.0.1`, `0x7f.1` and `2130706433` all mean 127.0.0.1.
 */
function ipv4Part(part: string): number | null {
  if (part.length === 0 || part.length > 34) return null;
  if (/^0x[0-9a-f]+$/i.test(part)) return parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return parseInt(part, 10);
  return null;
}

function parseIpv4Literal(text: string): string | null {
  const parts = text.split('.');
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const value = ipv4Part(part);
    if (value === null || !Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  // `a`, `a.b` (b: 24 bits), `a.b.c` (c: 16 bits), `a.b.c.d`: the last part fills the remaining bytes.
  const last = numbers.pop()!;
  if (numbers.some((value) => value > 255)) return null;
  const lastBits = 8 * (4 - numbers.length);
  if (last >= 2 ** lastBits) return null;
  const value = numbers.reduce((sum, byte, index) => sum + byte * 2 ** (8 * (3 - index)), 0) + last;
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

function canonicalIpv6(text: string): string | null {
  const groups = ipv6Groups(text);
  if (!groups || groups.length !== 8 || groups.some((group) => !(group >= 0 && group <= 0xffff))) return null;
  return groups.map((group) => group.toString(16)).join(':');
}

/**
 * The address a host text denotes when it is an IP literal (`[v6]` brackets, a `%zone`, one trailing
 * dot after an IPv4 literal and the inet_aton spellings allowed), or null when it is a name.
 */
export function parseIpLiteral(host: string): IpLiteral | null {
  let text = host.trim().toLowerCase();
  if (text.length === 0 || text.length > 100) return null;
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  if (text.includes(':')) {
    const withoutZone = text.split('%')[0];
    if (!isIPv6(withoutZone)) return null;
    const address = canonicalIpv6(withoutZone);
    return address ? { address, family: 6 } : null;
  }
  if (text.endsWith('.')) text = text.slice(0, -1);
  const address = parseIpv4Literal(text);
  return address ? { address, family: 4 } : null;
}
