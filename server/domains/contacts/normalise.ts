/**
 * The stored form of an address book value. One form per value, so a card is found whatever the case
 * or script it was typed in:
 * - a domain is trimmed, lower-cased, a leading `@` and a trailing `.` dropped, and its international
 *   labels converted to punycode (ASCII, `xn--…`): `Bücher.Example` and `xn--bcher-kva.example` are one
 *   entry. Punycode because it is what mail headers, the mirror and the exclusions store;
 * - an address is trimmed, its local part lower-cased as well (mail systems treat it case-blind in
 *   practice, and one card per mailbox owner is what people mean), its domain normalised as above.
 * Pure and browser-safe: the IDN conversion is the WHATWG URL parser's (UTS #46), present in Node and
 * every browser.
 */

export const contactKinds = ['contact', 'domain'] as const;
export type ContactKind = (typeof contactKinds)[number];

/** The longest value (the spec's bound). */
export const maxValueLength = 320;

const asciiDomain = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
/** The local part of an address as stored: printable ASCII without space, quotes, brackets, `@`, `,`, `;`, `\`. */
const localPart = /^[a-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}$/;
/** Characters a domain may not carry before conversion: the URL parser would read them as syntax. */
const domainSyntax = /[\s/\\?#@:%[\]<>^|"'`{}]/;

/** The punycode form of a domain, or null when it is not a domain name of at least two labels. */
export function normaliseDomain(raw: string): string | null {
  let domain = raw.trim();
  if (domain.startsWith('@')) domain = domain.slice(1);
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (domain === '' || domain.length > 253 * 4 || domainSyntax.test(domain)) return null;
  let ascii: string;
  try {
    ascii = new URL(`http://${domain}/`).hostname;
  } catch {
    return null;
  }
  // The parser also accepts IPv4 forms (`1.2.3.4`, `0x7f.1`) and rewrites them: not a domain here.
  if (/^[0-9.]+$/.test(ascii) || /^\[/.test(ascii) || /^(0x|[0-9])[0-9a-fx.]*$/i.test(ascii.split('.').pop() ?? '')) return null;
  return asciiDomain.test(ascii) ? ascii : null;
}

/** The stored form of an address, or null when it is not one. */
export function normaliseAddress(raw: string): string | null {
  const trimmed = raw.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at).toLowerCase();
  if (!localPart.test(local) || local.startsWith('.') || local.endsWith('.') || local.includes('..')) return null;
  const domain = normaliseDomain(trimmed.slice(at + 1));
  if (!domain || trimmed.slice(at + 1).startsWith('@')) return null;
  const value = `${local}@${domain}`;
  return value.length <= maxValueLength ? value : null;
}

export function normaliseValue(kind: ContactKind, raw: string): string | null {
  if (raw.length > maxValueLength) return null;
  return kind === 'domain' ? normaliseDomain(raw) : normaliseAddress(raw);
}

/** The domain of a stored address. */
export function domainOfAddress(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}

/**
 * The domains whose cards apply to a stored domain, most specific first: `eu.shop.example` →
 * [`eu.shop.example`, `shop.example`] (never a bare top-level label such as `example`).
 */
export function domainChain(domain: string): string[] {
  const labels = domain.split('.');
  const chain: string[] = [];
  for (let start = 0; labels.length - start >= 2; start += 1) chain.push(labels.slice(start).join('.'));
  return chain;
}
