/**
 * How a list mail may be left, read from `List-Unsubscribe` (RFC 2369: `<uri>, <uri>`) and
 * `List-Unsubscribe-Post` (RFC 8058). One-click is offered only when both say so: an https URL in
 * `List-Unsubscribe` and `List-Unsubscribe-Post: List-Unsubscribe=One-Click`; the service then POSTs
 * `List-Unsubscribe=One-Click` to that URL (server/domains/mail/messages/unsubscribe.ts). A `mailto:`
 * is kept so the webmail can prepare the unsubscribe mail instead. Anything else (http, other schemes,
 * over-long values) is ignored: the mirror keeps no URL it would not use.
 */
import type { HeaderValues } from './signals';

export interface ListUnsubscribe {
  /** The https URL to POST to, only with the RFC 8058 one-click header. */
  oneClickUrl: string | null;
  /** The first `mailto:` URI, as written (its `?subject=`/`body=` kept). */
  mailto: string | null;
}

const maxUriChars = 2_000;

function uris(value: string): string[] {
  return [...value.matchAll(/<([^<>]*)>/g)].map((match) => match[1]!.replace(/\s+/g, '')).filter((uri) => uri !== '' && uri.length <= maxUriChars);
}

function httpsUrl(uri: string): string | null {
  try {
    const url = new URL(uri);
    return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '' ? url.href : null;
  } catch {
    return null;
  }
}

function mailtoUri(uri: string): string | null {
  if (!/^mailto:/i.test(uri)) return null;
  const to = decodeURIComponent(uri.slice('mailto:'.length).split('?', 1)[0] ?? '').trim();
  return /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(to) ? uri : null;
}

export function listUnsubscribeOf(headers: HeaderValues): ListUnsubscribe | null {
  const all = (headers.get('list-unsubscribe') ?? []).flatMap(uris);
  const oneClickAsked = (headers.get('list-unsubscribe-post') ?? []).some((value) => value.replace(/\s+/g, '').toLowerCase() === 'list-unsubscribe=one-click');
  let url: string | null = null;
  let mailto: string | null = null;
  for (const uri of all) {
    url ??= httpsUrl(uri);
    try {
      mailto ??= mailtoUri(uri);
    } catch {
      // A malformed percent-escape: not an address to write to.
    }
  }
  const oneClickUrl = oneClickAsked ? url : null;
  if (!oneClickUrl && !mailto) return null;
  return { oneClickUrl, mailto };
}

/** The parts of a `mailto:` URI the compose form fills: the address, and the subject and body it asks for. */
export function mailtoParts(uri: string): { to: string; subject: string; body: string } | null {
  if (!mailtoUri(uri)) return null;
  const [address, query = ''] = uri.slice('mailto:'.length).split('?', 2);
  const params = new URLSearchParams(query);
  return { to: decodeURIComponent(address!).trim(), subject: (params.get('subject') ?? 'unsubscribe').slice(0, 200), body: (params.get('body') ?? '').slice(0, 2_000) };
}
