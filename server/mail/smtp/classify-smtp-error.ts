/**
 * An SMTP connection failure (nodemailer 10's `verify()`, the network guard) as one of
 * `smtp.host_not_found`, `smtp.unreachable`, `smtp.tls_failed`, `smtp.auth_failed`, with a detail safe
 * to show. Pure; the table of real error shapes is in classify-smtp-error.test.ts.
 *
 * nodemailer puts its own code in `code` (`EDNS`, `ESOCKET`, `ETIMEDOUT`, `ECONNECTION`, `ETLS`, `EAUTH`,
 * `EPROTOCOL`) and Node's in `originalCode` (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, ...).
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
  type Outcome,
  type RedactOptions,
  type SmtpProbeCode,
} from '../probe-errors';

function authOutcome(error: unknown, options: RedactOptions): Outcome | null {
  if (textField(error, 'code') !== 'EAUTH') return null;
  const responseCode = field(error, 'responseCode');
  // 538: encryption required for the requested mechanism (RFC 4954); 530 5.7.0 with "STARTTLS" likewise.
  const response = textField(error, 'response') ?? '';
  if (responseCode === 538 || (responseCode === 530 && /starttls|tls/i.test(response))) {
    return {
      kind: 'tls_failed',
      reason: 'tls_required',
      detail: 'The server only accepts logins over TLS. Turn TLS on, or use a port that offers STARTTLS.',
    };
  }
  if (responseCode === 454 || responseCode === 421) {
    return { kind: 'unreachable', reason: 'server_unavailable', detail: 'The server cannot log anyone in right now; try again later.' };
  }
  if (textField(error, 'command') === 'API') {
    return { kind: 'auth_failed', reason: 'no_shared_mechanism', detail: 'The server offers no login method this service can use with a password.' };
  }
  const said = quotableServerText(response, options);
  return {
    kind: 'auth_failed',
    reason: 'credentials_refused',
    detail: `The server refused the user name or password.${said ? ` It said: ${said}` : ''}`,
  };
}

const nodemailerUnreachable: Record<string, { reason: string; detail: string }> = {
  ECONNECTION: { reason: 'connection_closed', detail: 'The server closed the connection.' },
  EPROTOCOL: { reason: 'not_smtp', detail: 'The server did not answer like an SMTP server.' },
  [probeTimeoutCode]: { reason: 'timeout', detail: 'The server did not complete the login in time.' },
};

function timeoutOutcome(error: unknown): Outcome | null {
  if (textField(error, 'code') !== 'ETIMEDOUT') return null;
  if (textField(error, 'timeoutType') === 'GREETING_TIMEOUT') {
    return {
      kind: 'unreachable',
      reason: 'no_greeting',
      detail: 'The server accepted the connection but sent no SMTP greeting. If this port expects TLS from the start, turn TLS on.',
    };
  }
  return { kind: 'unreachable', reason: 'timeout', detail: 'The server did not answer in time.' };
}

export function classifySmtpError(error: unknown, options: RedactOptions = {}): ClassifiedFailure<SmtpProbeCode> {
  const code = textField(error, 'code');
  const originalCode = textField(error, 'originalCode');
  const nodeCode = originalCode ?? code;
  const outcome: Outcome =
    guardOutcome(error) ??
    authOutcome(error, options) ??
    tlsOutcome(nodeCode, error) ??
    (code === 'ETLS' ? { kind: 'tls_failed' as const, reason: 'tls_handshake_failed', detail: 'The TLS upgrade (STARTTLS) with the server failed.' } : null) ??
    (code === 'EDNS' ? { kind: 'host_not_found' as const, reason: 'dns_not_found', detail: 'The host name could not be resolved.' } : null) ??
    dnsOutcome(nodeCode) ??
    timeoutOutcome(error) ??
    networkOutcome(nodeCode) ??
    (code && Object.hasOwn(nodemailerUnreachable, code) ? { kind: 'unreachable' as const, ...nodemailerUnreachable[code] } : null) ?? {
      kind: 'unreachable',
      reason: 'unknown',
      detail: 'The SMTP conversation with the server failed.',
    };
  return { code: `smtp.${outcome.kind}`, reason: outcome.reason, detail: outcome.detail };
}
