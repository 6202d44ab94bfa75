/**
 * What a failed send means for the item, decided by whether anything can have been delivered:
 *
 * - `retry`: nothing left (connection refused, DNS, TLS, login refused, the network guard, a 4xx reply,
 *   a provider's 5xx before it accepted the message): back to `pending`, tried again later (a few times).
 * - `rate_limited`: the provider asked to wait (`Retry-After`); not a failed attempt.
 * - `failed`: a permanent refusal (every recipient refused, an invalid address, the provider's 400, a
 *   message too large, an attachment that no longer exists): retrying the same thing cannot help.
 * - `unknown`: the message was handed over and the answer was lost (timeout or connection closed after
 *   the data went out, an unreadable failure after the hand-over): never resent blindly.
 *
 * `kind` is one of a short fixed set (the item's `sendErrorKind`); `message` is a fixed phrase or a
 * server reply made safe to show (never a password, a token or a resolved address). Pure.
 */
import { isProviderError, isRateLimited } from '../providers/provider-errors';
import { field, quotableServerText, textField } from '../probe-errors';
import { classifySmtpError } from '../smtp/classify-smtp-error';

export type SendErrorKind =
  | 'auth'
  | 'unreachable'
  | 'tls'
  | 'rejected'
  | 'deferred'
  | 'rate_limited'
  | 'timeout'
  | 'too_large'
  | 'attachment_missing'
  | 'mailbox_not_active'
  | 'uncertain'
  | 'internal';

export type SendOutcome = 'retry' | 'rate_limited' | 'failed' | 'unknown';

export interface SendFailure {
  outcome: SendOutcome;
  kind: SendErrorKind;
  /** Safe to show and to store (bounded). */
  message: string;
  /** `rate_limited`: how long the provider asked to wait. */
  retryAfterMs?: number;
}

/** A failure already classified by the code that knows the phase it happened in (a transport). */
export class SendError extends Error {
  readonly failure: SendFailure;
  constructor(failure: SendFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.name = 'SendError';
    this.failure = failure;
  }
}

export function isSendError(error: unknown): error is SendError {
  return error instanceof SendError;
}

const uncertainMessage = 'The connection ended after the message was handed over; whether it was delivered cannot be confirmed.';

function bounded(text: string): string {
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}

/**
 * An SMTP send failure. `handedOver`: the message data had started to leave (after DATA was
 * accepted). A reply code always decides (the server answered: 5xx refused, 4xx deferred); without
 * one, a failure before the hand-over left nothing, one after it is `unknown`.
 */
export function classifySmtpSendError(error: unknown, context: { handedOver: boolean; hide?: (string | null | undefined)[] }): SendFailure {
  if (isSendError(error)) return error.failure;
  const hide = context.hide ?? [];
  const code = textField(error, 'code');
  const command = textField(error, 'command') ?? '';
  const responseCode = field(error, 'responseCode');
  const said = quotableServerText(textField(error, 'response'), { hide });
  if (code === 'EMESSAGE' && command === 'MAIL FROM' && typeof responseCode !== 'number') {
    return { outcome: 'failed', kind: 'too_large', message: 'The message is larger than the server accepts.' };
  }
  if (code === 'EENVELOPE' && command === 'API') {
    return { outcome: 'failed', kind: 'rejected', message: 'An address of the message is not valid.' };
  }
  if (typeof responseCode === 'number' && code !== 'EAUTH' && responseCode >= 400 && responseCode < 600 && ['MAIL FROM', 'RCPT TO', 'DATA'].includes(command)) {
    const permanent = responseCode >= 500;
    const what = command === 'RCPT TO' ? 'refused the recipients' : command === 'MAIL FROM' ? 'refused the sender' : 'refused the message';
    if (permanent && responseCode === 552) {
      return { outcome: 'failed', kind: 'too_large', message: bounded(`The server refused the message as too large.${said ? ` It said: ${said}` : ''}`) };
    }
    return {
      outcome: permanent ? 'failed' : 'retry',
      kind: permanent ? 'rejected' : 'deferred',
      message: bounded(`The server ${what}${permanent ? '' : ' for now'}.${said ? ` It said: ${said}` : ''}`),
    };
  }
  if (context.handedOver) return { outcome: 'unknown', kind: 'uncertain', message: uncertainMessage };
  const classified = classifySmtpError(error, { hide });
  const kind: SendErrorKind =
    classified.code === 'smtp.auth_failed'
      ? 'auth'
      : classified.code === 'smtp.tls_failed'
        ? 'tls'
        : code === 'ETIMEDOUT' || classified.reason === 'timeout'
          ? 'timeout'
          : 'unreachable';
  return { outcome: 'retry', kind, message: bounded(classified.detail) };
}

/** Network failure codes that prove the request never reached the provider. */
const notSentCodes = new Set(['provider.host_not_found', 'provider.address_not_allowed']);
const refusedConnection = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL']);

/**
 * A provider API send failure (ProviderError). An HTTP answer decides (the provider answered): 429 or
 * a rate-limit reason postpones, 5xx and 401/403 retry, other 4xx are permanent. Without an answer: a
 * connection that never opened left nothing; a timeout or a cut connection after the request went out
 * is `unknown`.
 */
export function classifyProviderSendError(error: unknown): SendFailure {
  if (isSendError(error)) return error.failure;
  if (isRateLimited(error)) {
    return { outcome: 'rate_limited', kind: 'rate_limited', message: error.message, retryAfterMs: error.retryAfterSeconds * 1000 };
  }
  if (isProviderError(error)) {
    if (error.httpStatus !== null) {
      if (error.kind === 'auth') return { outcome: 'retry', kind: 'auth', message: error.message };
      if (error.kind === 'unreachable') return { outcome: 'retry', kind: error.code === 'provider.timeout' ? 'timeout' : 'unreachable', message: error.message };
      if (error.code === 'provider.too_large') return { outcome: 'failed', kind: 'too_large', message: error.message };
      return { outcome: 'failed', kind: 'rejected', message: error.message };
    }
    if (notSentCodes.has(error.code) || (error.providerCode !== null && refusedConnection.has(error.providerCode))) {
      return { outcome: 'retry', kind: 'unreachable', message: error.message };
    }
    if (error.kind === 'auth') return { outcome: 'retry', kind: 'auth', message: error.message };
    if (error.code === 'provider.bad_response' && error.providerCode !== null && error.providerCode !== 'invalid_json') {
      // The guard refused the URL itself: nothing left.
      return { outcome: 'retry', kind: 'unreachable', message: error.message };
    }
    return { outcome: 'unknown', kind: 'uncertain', message: uncertainMessage };
  }
  // The OAuth token store's failures come before any request: nothing left.
  if (field(error, 'name') === 'OAuthTokenError') return { outcome: 'retry', kind: 'auth', message: 'The mailbox\'s authorisation could not be refreshed.' };
  return { outcome: 'unknown', kind: 'uncertain', message: uncertainMessage };
}
