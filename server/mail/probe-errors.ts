/**
 * What the IMAP and SMTP error classifiers share: the four outcomes of a failed connection, the
 * shapes of Node's DNS, socket and TLS errors, and the rule for `detail` texts (safe to show a member:
 * fixed phrases, a Node error code at most, never the password, never a resolved address). Pure.
 */
import { NetworkGuardError } from '../core/net/network-guard';

export type ProbeFailureKind = 'host_not_found' | 'unreachable' | 'tls_failed' | 'auth_failed';
export type ImapProbeCode = `imap.${ProbeFailureKind}`;
export type SmtpProbeCode = `smtp.${ProbeFailureKind}`;

export interface ClassifiedFailure<Code extends string> {
  /** A catalogue code: `imap.*` or `smtp.*`. */
  code: Code;
  /** A short machine tag of the cause (`connection_refused`, `self_signed_certificate`, ...), for logs and tests. */
  reason: string;
  /** One or two sentences for the member; safe to show and to log. */
  detail: string;
}

export type ProbeResult<Code extends string> = { ok: true } | ({ ok: false } & ClassifiedFailure<Code>);

/** Texts that must never be quoted in a detail (the password, the resolved address). */
export interface RedactOptions {
  hide?: (string | null | undefined)[];
}

export interface Outcome {
  kind: ProbeFailureKind;
  reason: string;
  detail: string;
}

export function field(error: unknown, name: string): unknown {
  return error !== null && typeof error === 'object' ? (error as Record<string, unknown>)[name] : undefined;
}

export function textField(error: unknown, name: string): string | undefined {
  const value = field(error, name);
  return typeof value === 'string' ? value : undefined;
}

export const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'EAI_NONAME', 'EAI_FAIL', 'ESERVFAIL', 'ENONAME']);

const networkReasons: Record<string, { reason: string; detail: string }> = {
  ECONNREFUSED: { reason: 'connection_refused', detail: 'The server refused the connection: nothing listens on this port.' },
  ECONNRESET: { reason: 'connection_reset', detail: 'The server closed the connection unexpectedly.' },
  EPIPE: { reason: 'connection_reset', detail: 'The server closed the connection unexpectedly.' },
  EHOSTUNREACH: { reason: 'host_unreachable', detail: 'The server\'s network cannot be reached.' },
  ENETUNREACH: { reason: 'host_unreachable', detail: 'The server\'s network cannot be reached.' },
  EHOSTDOWN: { reason: 'host_unreachable', detail: 'The server\'s network cannot be reached.' },
  ETIMEDOUT: { reason: 'timeout', detail: 'The server did not answer in time.' },
  EADDRNOTAVAIL: { reason: 'host_unreachable', detail: 'The server\'s address cannot be reached from this instance.' },
};

/** Certificate verification failures (Node/OpenSSL codes). */
const certificateReasons: Record<string, { reason: string; detail: string }> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    reason: 'self_signed_certificate',
    detail: 'The server\'s certificate is self-signed. Allow invalid certificates only if you trust this server.',
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    reason: 'self_signed_certificate',
    detail: 'The server\'s certificate chain ends in a self-signed certificate. Allow invalid certificates only if you trust this server.',
  },
  ERR_TLS_CERT_ALTNAME_INVALID: { reason: 'certificate_name_mismatch', detail: 'The server\'s certificate is not issued for this host name.' },
  CERT_HAS_EXPIRED: { reason: 'certificate_expired', detail: 'The server\'s certificate has expired.' },
  CERT_NOT_YET_VALID: { reason: 'certificate_not_yet_valid', detail: 'The server\'s certificate is not valid yet.' },
  CERT_REVOKED: { reason: 'certificate_revoked', detail: 'The server\'s certificate has been revoked.' },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: { reason: 'untrusted_certificate', detail: 'The server\'s certificate is not signed by a trusted authority.' },
  UNABLE_TO_GET_ISSUER_CERT: { reason: 'untrusted_certificate', detail: 'The server\'s certificate is not signed by a trusted authority.' },
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: { reason: 'untrusted_certificate', detail: 'The server\'s certificate is not signed by a trusted authority.' },
  CERT_UNTRUSTED: { reason: 'untrusted_certificate', detail: 'The server\'s certificate is not trusted.' },
  CERT_SIGNATURE_FAILURE: { reason: 'untrusted_certificate', detail: 'The server\'s certificate signature is invalid.' },
  ERR_SSL_WRONG_VERSION_NUMBER: {
    reason: 'not_tls',
    detail: 'The server did not answer with TLS on this port. Turn TLS off for this port (STARTTLS is still used when offered) or use the TLS port.',
  },
};

const tlsCodePattern = /^(ERR_TLS_|ERR_SSL_|ERR_OSSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|INVALID_CA|PATH_LENGTH_EXCEEDED|INVALID_PURPOSE)/;

/** A Node error code safe to quote (upper-case letters, digits, underscores). */
function quotableCode(code: string | undefined): string | null {
  return code && /^[A-Z][A-Z0-9_]{2,63}$/.test(code) ? code : null;
}

/** The outcome for a Node-level TLS error shape (`code`), or null when it is not one. */
export function tlsOutcome(code: string | undefined, error: unknown): Outcome | null {
  if (code && Object.hasOwn(certificateReasons, code)) return { kind: 'tls_failed', ...certificateReasons[code] };
  const library = textField(error, 'library');
  const message = textField(error, 'message') ?? '';
  if ((code && tlsCodePattern.test(code)) || library === 'SSL routines') {
    const quoted = quotableCode(code);
    return {
      kind: 'tls_failed',
      reason: 'tls_handshake_failed',
      detail: `The TLS handshake with the server failed${quoted ? ` (${quoted})` : ''}.`,
    };
  }
  // A reset or close during the handshake: the server dropped us instead of agreeing on TLS.
  if (/before secure TLS connection was established/i.test(message)) {
    return { kind: 'tls_failed', reason: 'tls_handshake_aborted', detail: 'The server closed the connection during the TLS handshake.' };
  }
  return null;
}

export function dnsOutcome(code: string | undefined): Outcome | null {
  return code && dnsCodes.has(code) ? { kind: 'host_not_found', reason: 'dns_not_found', detail: 'The host name could not be resolved.' } : null;
}

export function networkOutcome(code: string | undefined): Outcome | null {
  return code && Object.hasOwn(networkReasons, code) ? { kind: 'unreachable', ...networkReasons[code] } : null;
}

/**
 * The guard's refusals. A blocked address is reported as unreachable: from the member's side this
 * instance cannot reach the server, and answering `host_not_found` would be false (the name resolved);
 * the detail says why without naming the address it resolved to.
 */
export function guardOutcome(error: unknown): Outcome | null {
  if (!(error instanceof NetworkGuardError)) return null;
  if (error.reason === 'host_not_found') return { kind: 'host_not_found', reason: 'dns_not_found', detail: 'The host name could not be resolved.' };
  return {
    kind: 'unreachable',
    reason: 'address_not_allowed',
    detail: 'The server is on a private or reserved network address, which this instance is not allowed to connect to.',
  };
}

/** The probe's own overall deadline. */
export const probeTimeoutCode = 'PROBE_TIMEOUT';

export function probeTimeoutError(): Error {
  return Object.assign(new Error('The probe did not finish in time.'), { code: probeTimeoutCode });
}

/**
 * Server text (a login refusal, say) made quotable: one line, printable, at most 200 characters; null
 * when it contains a hidden text (the password, the resolved address) or anything that looks like an
 * IP address. Details are otherwise built from fixed phrases only.
 */
export function quotableServerText(text: string | undefined, options: RedactOptions = {}): string | null {
  if (!text) return null;
  const oneLine = text.replace(/[\r\n\t]+/g, ' ').replace(/[^\x20-\x7e\u00a0-\uffff]/g, '').trim();
  if (oneLine.length === 0) return null;
  if ((options.hide ?? []).some((secret) => secret && oneLine.includes(secret))) return null;
  if (/\b\d{1,3}(\.\d{1,3}){3}\b|\b[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}\b/i.test(oneLine)) return null;
  return oneLine.length > 200 ? `${oneLine.slice(0, 199)}…` : oneLine;
}
