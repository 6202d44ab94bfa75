/**
 * Stamps each incoming request with the client's address and scheme, in headers the route handlers
 * trust (`x-mailflow-client-ip`, `x-mailflow-client-proto`). Incoming copies of those headers are always
 * overwritten, and proxy headers are honoured only with TRUST_PROXY=1.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { clientIpHeader, clientProtoHeader } from '../core/http/client-headers';

function firstValue(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first ? first : null;
}

export function stampClientOrigin(req: IncomingMessage, trustProxy: boolean): void {
  let ip = req.socket.remoteAddress ?? null;
  let proto = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  if (trustProxy) {
    ip = firstValue(req.headers['x-forwarded-for']) ?? ip;
    const forwardedProto = firstValue(req.headers['x-forwarded-proto']);
    if (forwardedProto === 'https' || forwardedProto === 'http') proto = forwardedProto;
  }
  if (ip?.startsWith('::ffff:')) ip = ip.slice(7);
  if (ip) req.headers[clientIpHeader] = ip;
  else delete req.headers[clientIpHeader];
  req.headers[clientProtoHeader] = proto;
}
