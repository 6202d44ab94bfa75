/**
 * Cross-site request refusal. A browser attaches the `session` cookie to requests that another site
 * makes it send (a form post, a fetch from a sibling subdomain or another app on localhost:<port>):
 * SameSite=Lax alone does not stop same-site origins. So every state-changing request that a cookie
 * could authenticate, and every WebSocket handshake, is refused with 403 `auth.cross_origin` when
 *
 * - `Sec-Fetch-Site` says `cross-site` or `same-site` (browsers send it on every request), or
 * - `Origin` names anything but the application's own origin: PUBLIC_URL's origin when configured,
 *   or the origin the request was addressed to (its scheme and `Host`). `Origin: null` (sandboxed
 *   frames, some redirects) is foreign too.
 *
 * A request carrying neither header is not from a modern browser page (a program using a cookie,
 * curl) and is allowed. Bearer-authenticated requests never reach this check: a key cannot ride
 * along with a browser. Comparing with `Host` is safe here: a browser always sends the host it
 * connects to, and the header is only compared, never used to build a link.
 */
import { appError } from '../errors/app-error';
import { clientProtoHeader, type RequestHeaders } from './client-headers';

/** Lower-cased `scheme://host[:port]` of a URL, or null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin.toLowerCase() : null;
  } catch {
    return null;
  }
}

function addressedOrigin(headers: RequestHeaders): string | null {
  const host = headers.get('host');
  if (!host || host.length > 300) return null;
  const proto = headers.get(clientProtoHeader) === 'https' ? 'https' : 'http';
  return originOf(`${proto}://${host}`);
}

/** Why a request is refused as cross-site, or null when it may proceed. Pure. */
export function crossOriginReason(headers: RequestHeaders, publicUrl: string | null): 'cross_site_fetch' | 'foreign_origin' | null {
  const site = headers.get('sec-fetch-site')?.toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return 'cross_site_fetch';
  const origin = headers.get('origin');
  if (origin === null) return null;
  const claimed = origin.length <= 300 ? originOf(origin) : null;
  if (claimed === null) return 'foreign_origin';
  const own = [publicUrl ? originOf(publicUrl) : null, addressedOrigin(headers)];
  return own.includes(claimed) ? null : 'foreign_origin';
}

/** Throws 403 `auth.cross_origin` for a cross-site request (see crossOriginReason). */
export function assertSameOrigin(headers: RequestHeaders, publicUrl: string | null): void {
  const reason = crossOriginReason(headers, publicUrl);
  if (reason) throw appError('auth.cross_origin', { details: { reason } });
}

/** Methods that change state: the ones a cross-site check guards (GET and HEAD never do here). */
export function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}
