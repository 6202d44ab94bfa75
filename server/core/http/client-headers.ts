/**
 * Headers the web server stamps on every request it admits (client copies are always overwritten):
 * the client's address and the scheme it reached us by. Proxy headers feed them only with
 * TRUST_PROXY=1 (see server/http/client-origin.ts). Everything downstream reads these, never
 * `X-Forwarded-*` itself.
 */
export const clientIpHeader = 'x-mailflow-client-ip';
export const clientProtoHeader = 'x-mailflow-client-proto';
