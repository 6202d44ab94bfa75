/**
 * IP address text as it arrives from sockets and proxy headers: normalised to one spelling, checked
 * to be an address at all, and grouped for per-client counting. Pure; tested on its own.
 */
import { BlockList, isIP } from 'node:net';

/**
 * The canonical form of an address, or null when `text` is not one. Accepts what proxies write in
 * `X-Forwarded-For`: a bare address, `1.2.3.4:5678`, `[2001:db8::1]:443`; IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`, how a dual-stack socket reports an IPv4 peer) becomes the IPv4 address.
 */
export function normaliseIp(text: string | null | undefined): string | null {
  if (!text) return null;
  let value = text.trim();
  if (value.length === 0 || value.length > 64) return null;
  // A port after the address: `[v6]:port` or `v4:port` (a bare v6 address has colons of its own).
  const withPort = /^\[([^\]]+)\]:(\d{1,5})$|^([\d.]+):(\d{1,5})$/.exec(value);
  if (withPort) {
    if (Number(withPort[2] ?? withPort[4]) > 65535) return null;
    value = withPort[1] ?? withPort[3];
  } else if (value.startsWith('[') && value.endsWith(']')) {
    value = value.slice(1, -1);
  }
  const kind = isIP(value);
  if (kind === 4) return value;
  if (kind !== 6) return null;
  const lower = value.toLowerCase();
  const groups = ipv6Groups(lower);
  if (groups && groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  }
  return lower;
}

export function isLoopbackIp(ip: string | null): boolean {
  return Boolean(ip && (ip === '::1' || /^127\./.test(ip)));
}

/** The eight 16-bit groups of an IPv6 address (already validated by normaliseIp), or null. */
export function ipv6Groups(ip: string): number[] | null {
  let text = ip.split('%')[0];
  const v4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4Tail) {
    const [a, b, c, d] = v4Tail.slice(1).map(Number);
    text = `${text.slice(0, v4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 0) return null;
  return [...left, ...new Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
}

/**
 * A list of trusted networks from text such as `10.0.0.0/8, 192.168.1.7, fd00::/8`. Throws a
 * message naming the entry that is not an address or network.
 */
export function parseNetworks(text: string): BlockList {
  const list = new BlockList();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [addressText, prefixText, extra] = entry.split('/');
    const address = normaliseIp(addressText);
    const family = address ? (isIP(address) === 4 ? 'ipv4' : 'ipv6') : null;
    const prefix = prefixText === undefined ? null : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!address || !family || extra !== undefined || Number.isNaN(prefix) || (prefix !== null && prefix > (family === 'ipv4' ? 32 : 128))) {
      throw new Error(`not an IP address or network (address/prefix): ${entry.slice(0, 80)}`);
    }
    if (prefix === null) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Whether an address (normalised) is in the list. */
export function inNetworks(list: BlockList, ip: string): boolean {
  return list.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');
}
