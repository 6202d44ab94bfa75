/**
 * An `http_generic` connection used by the HTTP capability (issue 18, item 2). Executors never see a
 * secret: the capability opens it, puts it on the request, and hands back an answer with every form of
 * it masked.
 *
 * - Found among the run member's own connections and the organisation's; another member's, another
 *   type or an unknown id fail alike `credential_missing` (no existence leak).
 * - Bound to hosts (`allowed_hosts`, server/core/net/allowed-hosts.ts): the first URL and every
 *   redirect hop must be covered, else `http_credential_host_not_allowed` before anything is sent. An
 *   organisation connection made before hosts existed is sent nowhere (`http_credential_hosts_missing`)
 *   until an administrator sets them; a member's own is bound to the first host a live run sends it to.
 * - Opened only by a live request: a simulated run (test, evaluation) reads the row's clear fields
 *   (kind, `sent_as`, hosts) and reports where the secret would go, masked.
 * - Masked by value: every form of the secret that can come back (as sent, URL-encoded, the basic
 *   header's base64) is replaced by the mask in what the capability answers, whatever the server echoed.
 */
import { randomUUID } from 'node:crypto';
import { openJson } from '../core/crypto/secret-box';
import { db } from '../core/db';
import { isUuid } from '../core/ids';
import { allowedHostOf, isHostAllowed } from '../core/net/allowed-hosts';
import { maskText } from '../engine/expressions';
import { fail } from '../engine/contract/failures';

/** A connection's clear fields, and what opens or binds it. */
export interface HttpCredential {
  scope: 'member' | 'org';
  kind: string | null;
  /** The header (lower case) or query parameter the secret travels in; null on rows made before it was kept. */
  sentAs: string | null;
  allowedHosts: string[];
  /** The sealed secret, opened (NodeFailure `credential_missing` when it cannot be). */
  open(): Record<string, unknown>;
  /** Binds a connection without hosts to `entry`; answers the hosts stored afterwards (another run may have bound it first). */
  bindTo(entry: string): Promise<string[]>;
}

export interface HttpCredentialSource {
  load(credentialId: string): Promise<HttpCredential>;
}

/** The run member's (or the organisation's) `http_generic` connections, from the database. */
export function databaseCredentialSource(memberId: string): HttpCredentialSource {
  return {
    async load(credentialId) {
      if (!isUuid(credentialId)) throw fail.permanent('credential_missing');
      const row = await db().credential.findFirst({
        where: { id: credentialId, type: 'http_generic', OR: [{ memberId, scope: 'member' }, { scope: 'org' }] },
        select: { id: true, scope: true, kind: true, sentAs: true, allowedHosts: true, dataEnc: true },
      });
      if (!row) throw fail.permanent('credential_missing');
      return {
        scope: row.scope === 'org' ? 'org' : 'member',
        kind: row.kind,
        sentAs: row.sentAs,
        allowedHosts: row.allowedHosts,
        open() {
          let data: unknown;
          try {
            data = openJson(row.dataEnc, `credential:${row.id}`);
          } catch {
            throw fail.permanent('credential_missing', { message: 'The connection’s secret cannot be opened on this instance.' });
          }
          if (data === null || typeof data !== 'object' || Array.isArray(data)) throw fail.permanent('credential_missing');
          return data as Record<string, unknown>;
        },
        async bindTo(entry) {
          // Conditional: only a connection still without hosts is bound, so two first runs cannot both bind.
          await db().credential.updateMany({ where: { id: row.id, scope: 'member', allowedHosts: { isEmpty: true } }, data: { allowedHosts: [entry] } });
          const stored = await db().credential.findUnique({ where: { id: row.id }, select: { allowedHosts: true } });
          return stored?.allowedHosts ?? [];
        },
      };
    },
  };
}

function hostNotAllowed(url: URL) {
  return fail.permanent('http_credential_host_not_allowed', {
    message: `The connection may not be sent to ${url.host}: it is not one of the connection’s allowed hosts.`,
    details: { host: url.host },
  });
}

/**
 * The hosts the request may reach with this connection, checked against `url` (the first hop). A
 * member's connection without hosts is bound to `url`'s host by a live request; a simulated one only
 * says it would be.
 */
export async function hostsFor(credential: HttpCredential, url: URL, simulated: boolean): Promise<string[]> {
  let hosts = credential.allowedHosts;
  if (hosts.length === 0) {
    if (credential.scope === 'org') throw fail.permanent('http_credential_hosts_missing');
    hosts = simulated ? [allowedHostOf(url)] : await credential.bindTo(allowedHostOf(url));
  }
  if (!isHostAllowed(url, hosts)) throw hostNotAllowed(url);
  return hosts;
}

/** A redirect hop's check: outside the hosts, the exchange stops before the hop is sent. */
export function hopChecker(hosts: readonly string[]): (url: URL) => void {
  return (url) => {
    if (!isHostAllowed(url, hosts)) throw hostNotAllowed(url);
  };
}

/** The secret on the request: headers to add, a query parameter, the names to drop on an origin change, the forms to mask. */
export interface AppliedSecret {
  headers: Record<string, string>;
  query: { name: string; value: string } | null;
  secretHeaders: string[];
  secretQueryParams: string[];
  /** Every text form of the secret an answer could carry. */
  forms: string[];
}

function urlForms(value: string): string[] {
  return [value, encodeURIComponent(value), new URLSearchParams([['', value]]).toString().slice(1)];
}

/** Where an opened `http_generic` secret goes on the request. */
export function applySecret(secret: Record<string, unknown>): AppliedSecret {
  const text = (key: string) => (typeof secret[key] === 'string' ? (secret[key] as string) : '');
  switch (secret.kind) {
    case 'apiKey': {
      const name = text('headerName').toLowerCase();
      return { headers: { [name]: text('value') }, query: null, secretHeaders: [name], secretQueryParams: [], forms: urlForms(text('value')) };
    }
    case 'bearer':
      return { headers: { authorization: `Bearer ${text('token')}` }, query: null, secretHeaders: ['authorization'], secretQueryParams: [], forms: urlForms(text('token')) };
    case 'basic': {
      const encoded = Buffer.from(`${text('username')}:${text('password')}`).toString('base64');
      return { headers: { authorization: `Basic ${encoded}` }, query: null, secretHeaders: ['authorization'], secretQueryParams: [], forms: [encoded, ...urlForms(text('password'))] };
    }
    case 'query':
      return { headers: {}, query: { name: text('paramName'), value: text('value') }, secretHeaders: [], secretQueryParams: [text('paramName')], forms: urlForms(text('value')) };
    default:
      throw fail.permanent('credential_missing');
  }
}

/** Replaces every form of the secret in `text` with the mask (longest forms first, empty ones ignored). */
export function maskerOf(forms: readonly string[]): (text: string) => string {
  const distinct = [...new Set(forms.filter((form) => form.length > 0))].sort((a, b) => b.length - a.length);
  return (text) => {
    let result = text;
    for (const form of distinct) if (result.includes(form)) result = result.split(form).join(maskText);
    return result;
  };
}

/** `url` with `name=value` appended (URL-encoded as a browser would). */
export function withQueryParam(url: URL, name: string, value: string): URL {
  const next = new URL(url);
  next.searchParams.append(name, value);
  return next;
}

/** `url` with `name=••••` appended, the mask left readable. */
export function withMaskedParam(url: URL, name: string): string {
  const marker = `m${randomUUID().replaceAll('-', '')}`;
  return withQueryParam(url, name, marker).href.replace(marker, maskText);
}

/**
 * What a simulated run reports it would send with this connection, never opening it: the secret's
 * header or parameter with the mask (a row made before `sent_as` was kept names its kind only).
 */
export function simulatedPlacement(credential: HttpCredential, url: URL): { headers: Record<string, string>; url: string } {
  const name = credential.sentAs ?? (credential.kind === 'bearer' || credential.kind === 'basic' ? 'authorization' : null);
  if (credential.kind === 'query') return { headers: {}, url: name ? withMaskedParam(url, name) : url.href };
  if (credential.kind === 'bearer') return { headers: { authorization: `Bearer ${maskText}` }, url: url.href };
  if (credential.kind === 'basic') return { headers: { authorization: `Basic ${maskText}` }, url: url.href };
  return { headers: name ? { [name]: maskText } : {}, url: url.href };
}
