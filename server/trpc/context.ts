/**
 * Per-request context shared by both transports (REST through trpc-to-openapi, and the UI's tRPC
 * endpoint). The actor is resolved lazily by the authenticate middleware, only for routes that need it.
 */
import type { Actor } from '../core/auth/access';
import { clientIpHeader, clientLocalHeader, clientProtoHeader, type RequestHeaders } from '../core/http/client-headers';

export interface RequestContext {
  transport: 'rest' | 'trpc';
  /** The HTTP method the request came with (the cross-origin rule guards the state-changing ones). */
  method: string;
  headers: RequestHeaders;
  /** Client address as seen by the web server, or by the trusted proxies in front of it. */
  ip: string | null;
  /** True when the client reached us over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
  /**
   * True when a browser on this very machine calls us by a loopback name (http://localhost:3000 after
   * `npm start`): browsers treat that origin as secure, so plain HTTP is acceptable there. Decided
   * by the web server from the socket peer, never from a forwarded address.
   */
  local: boolean;
  actor: Actor;
  /** Response headers to add to a success or an error (Set-Cookie, Idempotency-Replayed). */
  responseHeaders: Headers;
  /**
   * What a procedure decides about its own answer, shared by reference with the transport (middleware
   * copies the context): a success status other than the route's, when the answer says so (a replay's
   * dry run: 200 instead of 202).
   */
  answer: { successStatus?: 200 | 201 | 202 };
}

export { clientIpHeader, clientProtoHeader };

export function createRequestContext(transport: RequestContext['transport'], headers: RequestHeaders, method: string): RequestContext {
  return {
    transport,
    method,
    headers,
    ip: headers.get(clientIpHeader),
    secure: headers.get(clientProtoHeader) === 'https',
    local: headers.get(clientLocalHeader) === '1',
    actor: { kind: 'anonymous' },
    responseHeaders: new Headers(),
    answer: {},
  };
}
