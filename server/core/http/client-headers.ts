/**
 * Headers the web server stamps on every request it admits (client copies are always overwritten):
 * the client's address and the scheme it reached us by. Proxy headers feed them only through a
 * trusted proxy (TRUST_PROXY, TRUST_PROXY_CIDRS; see server/http/client-origin.ts). Everything
 * downstream reads these, never `X-Forwarded-*` itself.
 */
export const clientIpHeader = 'x-mailflow-client-ip';
export const clientProtoHeader = 'x-mailflow-client-proto';
/** `1` when a browser on this machine called a loopback name directly (no proxy): the HTTPS rule's exemption. */
export const clientLocalHeader = 'x-mailflow-client-local';

/**
 * What the request pipeline reads of a request's headers. A fetch `Headers` is one; the web server's direct
 * path for bodiless REST requests reads node's own header object instead (server/http/node-headers.ts), which
 * saves building a `Headers` and a `Request` on the hottest path.
 */
export type RequestHeaders = Pick<Headers, 'get' | 'has'>;
