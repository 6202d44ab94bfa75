/**
 * The hosts a stored secret may be sent to (an `http_generic` connection's `allowedHosts`): written
 * by people, normalised here, matched against every URL before a byte carrying the secret leaves.
 * Pure; used by the connections domain (validation) and the HTTP node's capability (matching).
 *
 * An entry is one of
 * - a host: `api.example.com`, `127.0.0.1`, `[2001:db8::1]` — http or https on the standard port
 *   (80 or 443; writing `:80` or `:443` means the same);
 * - a host and port: `api.example.com:8443` — that port, http or https;
 * - an origin: `https://api.example.com`, `http://intranet:8080` — that scheme, host and port only.
 *
 * Normalised as browsers do (lower case, internationalised names in their ASCII form `xn--…`, IPv4
 * in dotted form, no trailing dot, default port dropped). Refused: wildcards (`*.example.com` would also
 * cover subdomains someone else controls, as on shared hosting), paths, queries, fragments, user
 * names, schemes other than http and https, and text that is not a host name or an IP address.
 */

export const allowedHostsBounds = { maxEntries: 20, maxEntryLength: 300 } as const;

export type AllowedHostRefusal = 'wildcard' | 'scheme' | 'not_only_host' | 'not_a_host';

export type AllowedHostParse = { ok: true; entry: string } | { ok: false; reason: AllowedHostRefusal; message: string };

export const allowedHostMessages: Record<AllowedHostRefusal, string> = {
  wildcard: 'Wildcards are not allowed: list each host.',
  scheme: 'Only http and https.',
  not_only_host: 'A host only (optionally with a port, or as an origin such as https://api.example.com): no path, query, fragment or user name.',
  not_a_host: 'Not a host name or IP address.',
};

interface HostKey {
  /** `http` or `https`; null: either (a host entry). */
  scheme: string | null;
  host: string;
  /** '' for the standard port. */
  port: string;
}

const schemePattern = /^([a-z][a-z0-9+.-]*):\/\//;
const labelPattern = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function refusal(reason: AllowedHostRefusal): AllowedHostParse {
  return { ok: false, reason, message: allowedHostMessages[reason] };
}

function isHostName(host: string): boolean {
  if (host.startsWith('[') && host.endsWith(']')) return true; // the URL parser accepted an IPv6 literal
  if (host.length > 253) return false;
  return host.split('.').every((label) => labelPattern.test(label));
}

function keyText(key: HostKey): string {
  const hostPort = key.port ? `${key.host}:${key.port}` : key.host;
  return key.scheme ? `${key.scheme}://${hostPort}` : hostPort;
}

function parseKey(text: string): { key: HostKey } | { reason: AllowedHostRefusal } {
  const raw = text.trim().toLowerCase();
  if (raw === '' || raw.length > allowedHostsBounds.maxEntryLength) return { reason: 'not_a_host' };
  if (raw.includes('*')) return { reason: 'wildcard' };
  const scheme = schemePattern.exec(raw)?.[1] ?? null;
  if (scheme !== null && scheme !== 'http' && scheme !== 'https') return { reason: 'scheme' };
  const rest = scheme === null ? raw : raw.slice(scheme.length + 3);
  // Whatever follows the authority (or a user name before it) is not a host.
  if (/[/?#@\\\s]/.test(rest.replace(/\/$/, ''))) return { reason: 'not_only_host' };
  let url: URL;
  try {
    url = new URL(`${scheme ?? 'https'}://${rest}`);
  } catch {
    return { reason: 'not_a_host' };
  }
  const host = url.hostname.replace(/\.$/, '');
  if (host === '' || !isHostName(host)) return { reason: 'not_a_host' };
  // Without a scheme, :80 and :443 are the standard ports the bare host already covers.
  const port = scheme === null && (url.port === '80' || url.port === '443') ? '' : url.port;
  return { key: { scheme, host, port } };
}

/** One entry as written by a person, normalised, or why it is refused. */
export function normaliseAllowedHost(text: string): AllowedHostParse {
  const parsed = parseKey(text);
  return 'reason' in parsed ? refusal(parsed.reason) : { ok: true, entry: keyText(parsed.key) };
}

/** A valid list normalised and without duplicates (order kept); throws on an invalid entry (validate first). */
export function normaliseAllowedHosts(list: readonly string[]): string[] {
  const entries: string[] = [];
  for (const text of list) {
    const parsed = normaliseAllowedHost(text);
    if (!parsed.ok) throw new Error(`Invalid allowed host: ${parsed.reason}`);
    if (!entries.includes(parsed.entry)) entries.push(parsed.entry);
  }
  return entries;
}

/** The entry that covers exactly this URL's origin (for binding a connection to its first host). */
export function allowedHostOf(url: URL): string {
  const host = url.hostname.replace(/\.$/, '');
  // http on 443 or https on 80: only the origin form says that.
  if (url.port === '80' || url.port === '443') return keyText({ scheme: url.protocol.replace(/:$/, ''), host, port: url.port });
  return keyText({ scheme: null, host, port: url.port });
}

/** Whether `url` (http or https) is covered by one of the normalised entries. */
export function isHostAllowed(url: URL, entries: readonly string[]): boolean {
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'http' && scheme !== 'https') return false;
  const host = url.hostname.replace(/\.$/, '');
  for (const entry of entries) {
    const parsed = parseKey(entry);
    if ('reason' in parsed) continue;
    const key = parsed.key;
    if (key.host === host && key.port === url.port && (key.scheme === null || key.scheme === scheme)) return true;
  }
  return false;
}
