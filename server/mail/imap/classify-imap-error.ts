/**
 * An IMAP connection failure (imapflow 2.x, Node's socket/TLS/DNS errors, the network guard) as one
 * of `imap.host_not_found`, `imap.unreachable`, `imap.tls_failed`, `imap.auth_failed`, with a detail
 * safe to show. Pure; the table of real error shapes is in classify-imap-error.test.ts.
 *
 * Order matters: the guard's refusals first, then a refused login (imapflow marks it
 * `authenticationFailed`), then TLS (a `tlsFailed` mark from a failed STARTTLS, certificate and
 * OpenSSL codes), then DNS, then everything else that means "no usable IMAP server there".
 */
import {
  dnsOutcome,
  field,
  guardOutcome,
  networkOutcome,
  probeTimeoutCode,
  quotableServerText,
  textField,
  tlsOutcome,
  type ClassifiedFailure,
  type ImapProbeCode,
  type Outcome,
  type RedactOptions,
} from '../probe-errors';

const imapflowUnreachable: Record<string, { reason: string; detail: string }> = {
  CONNECT_TIMEOUT: { reason: 'timeout', detail: 'The connection to the server timed out.' },
  GREETING_TIMEOUT: {
    reason: 'no_greeting',
    detail: 'The server accepted the connection but sent no IMAP greeting. If this port expects TLS from the start, turn TLS on.',
  },
  ETIMEOUT: { reason: 'timeout', detail: 'The server stopped answering.' },
  [probeTimeoutCode]: { reason: 'timeout', detail: 'The server did not complete the login in time.' },
  NoConnection: { reason: 'connection_closed', detail: 'The server closed the connection.' },
  EConnectionClosed: { reason: 'connection_closed', detail: 'The server closed the connection.' },
  ClosedAfterConnectText: { reason: 'connection_closed', detail: 'The server closed the connection before greeting.' },
  ClosedAfterConnectTLS: { reason: 'connection_closed', detail: 'The server closed the connection before greeting.' },
  InvalidResponse: { reason: 'not_imap', detail: 'The server did not answer like an IMAP server.' },
  UnexpectedTag: { reason: 'not_imap', detail: 'The server did not answer like an IMAP server.' },
  ETHROTTLE: { reason: 'throttled', detail: 'The server is limiting connections; try again later.' },
};

const tlsMarks: Record<string, { reason: string; detail: string }> = {
  UPGRADE_TIMEOUT: { reason: 'starttls_timeout', detail: 'The server did not complete the STARTTLS upgrade in time.' },
  STARTTLS_INJECTION: { reason: 'starttls_injection', detail: 'The server sent data before the TLS upgrade finished; the connection was dropped for safety.' },
};

function authOutcome(error: unknown, options: RedactOptions): Outcome | null {
  const serverCode = textField(error, 'serverResponseCode');
  const command = textField(error, 'executedCommand') ?? '';
  const status = textField(error, 'responseStatus');
  const loginCommand = /^\S+ (LOGIN|AUTHENTICATE)\b/i.test(command);
  // RFC 5530 response codes that are not about the credentials.
  if (serverCode === 'UNAVAILABLE') {
    return { kind: 'unreachable', reason: 'server_unavailable', detail: 'The server cannot log anyone in right now; try again later.' };
  }
  if (serverCode === 'PRIVACYREQUIRED') {
    return { kind: 'tls_failed', reason: 'tls_required', detail: 'The server only accepts logins over TLS. Turn TLS on, or use a port that offers STARTTLS.' };
  }
  if (
    field(error, 'authenticationFailed') === true ||
    serverCode === 'AUTHENTICATIONFAILED' ||
    serverCode === 'AUTHORIZATIONFAILED' ||
    serverCode === 'EXPIRED' ||
    (loginCommand && (status === 'NO' || status === 'BAD'))
  ) {
    const said = quotableServerText(textField(error, 'responseText'), options);
    return {
      kind: 'auth_failed',
      reason: 'credentials_refused',
      detail: `The server refused the user name or password.${said ? ` It said: ${said}` : ''}`,
    };
  }
  return null;
}

export function classifyImapError(error: unknown, options: RedactOptions = {}): ClassifiedFailure<ImapProbeCode> {
  const code = textField(error, 'code');
  const outcome: Outcome =
    guardOutcome(error) ??
    authOutcome(error, options) ??
    (code && Object.hasOwn(tlsMarks, code) ? { kind: 'tls_failed' as const, ...tlsMarks[code] } : null) ??
    tlsOutcome(code, error) ??
    (field(error, 'tlsFailed') === true
      ? { kind: 'tls_failed' as const, reason: 'tls_handshake_failed', detail: 'The TLS upgrade (STARTTLS) with the server failed.' }
      : null) ??
    dnsOutcome(code) ??
    networkOutcome(code) ??
    (code && Object.hasOwn(imapflowUnreachable, code) ? { kind: 'unreachable' as const, ...imapflowUnreachable[code] } : null) ??
    (code?.startsWith('ParserError') ? { kind: 'unreachable' as const, reason: 'not_imap', detail: 'The server did not answer like an IMAP server.' } : null) ?? {
      kind: 'unreachable',
      reason: 'unknown',
      detail: 'The IMAP conversation with the server failed.',
    };
  return { code: `imap.${outcome.kind}`, reason: outcome.reason, detail: outcome.detail };
}
