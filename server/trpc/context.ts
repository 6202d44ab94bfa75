/**
 * Per-request context shared by both transports (REST through trpc-to-openapi, and the UI's tRPC
 * endpoint). The actor is resolved lazily by the authenticate middleware, only for routes that need it.
 */
import type { Actor } from '../core/auth/access';
import { clientIpHeader, clientProtoHeader } from '../core/http/client-headers';

export interface RequestContext {
  transport: 'rest' | 'trpc';
  /** The HTTP method the request came with (the cross-origin rule guards the state-changing ones). */
  method: string;
  headers: Headers;
  /** Client address as seen by the web server (proxy headers honoured only with TRUST_PROXY=1). */
  ip: string | null;
  /** True when the client reached us over HTTPS (directly or, with TRUST_PROXY=1, through a proxy). */
  secure: boolean;
  /**
   * True when a browser on this very machine calls us by a loopback name (http://localhost:3000 after
   * `npm start`): browsers treat that origin as secure, so plain HTTP is acceptable there.
   */
  local: boolean;
  actor: Actor;
  /** Response headers to add to a success or an error (Set-Cookie, Idempotency-Replayed). */
  responseHeaders: Headers;
}

export { clientIpHeader, clientProtoHeader };

export function createRequestContext(transport: RequestContext['transport'], headers: Headers, method: string): RequestContext {
  return {
    transport,
    method,
    headers,
    ip: headers.get(clientIpHeader),
    secure: headers.get(clientProtoHeader) === 'https',
    local: isLoopbackAddress(headers.get(clientIpHeader)) && isLoopbackHost(headers.get('host')),
    actor: { kind: 'anonymous' },
    responseHeaders: new Headers(),
  };
}

/** Base URL for links shown to the caller: PUBLIC_URL when set, else the origin the caller used. */
export function baseUrlOf(ctx: RequestContext, publicUrl: string | null): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  return `${ctx.secure ? 'https' : 'http'}://${ctx.headers.get('host') ?? 'localhost'}`;
}

export function isLoopbackAddress(ip: string | null): boolean {
  return Boolean(ip && (ip === '::1' || /^127\./.test(ip)));
}

export function isLoopbackHost(host: string | null): boolean {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return name === 'localhost' || name === '[::1]' || /^127\./.test(name);
}
