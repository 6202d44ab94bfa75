/**
 * The transport rule for requests that carry a password (sign-in, invitation acceptance): in
 * production, plain HTTP is refused with 403 `auth.https_required`, except from a browser on this
 * machine calling a loopback name (browsers treat http://localhost as a secure context; it is how
 * `npm start` is first used). Whether a request is `local` is decided by the web server from the
 * socket peer (server/http/client-origin.ts), never from a forwarded address or `Host` alone.
 */
import { isProduction } from '../config';
import { appError } from '../errors/app-error';

export interface RequestTransport {
  /** The client reached us over HTTPS (directly or through a trusted proxy). */
  secure: boolean;
  /** A browser on this machine, directly, at a loopback name. */
  local: boolean;
}

export function assertPasswordTransport(transport: RequestTransport): void {
  if (isProduction() && !transport.secure && !transport.local) throw appError('auth.https_required');
}
