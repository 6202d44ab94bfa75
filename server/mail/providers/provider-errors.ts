/**
 * Typed failures of the OAuth mail providers' HTTP APIs (the Gmail-compatible and Graph-compatible
 * adapters), so the sync orchestrator can react without reading HTTP: `auth` (the grant is refused:
 * reconnect), `rate_limited` (postpone by `retryAfterSeconds`, never a failure), `unreachable` (network,
 * timeout, server error: back off and retry), `permanent` (the request itself is wrong: retrying the same
 * thing cannot help). `describeProviderError` turns any error into the mailbox's `lastError` fields.
 *
 * Messages are fixed phrases safe to show and to log: never a token, a URL (delta links carry state
 * tokens) or an address the network guard resolved. The provider's own error code/reason is kept apart
 * (`providerCode`) for logs and tests. Pure, except for the clock default of `parseRetryAfter`.
 */
import { NetworkGuardError } from '../../core/net/network-guard';
import type { ClassifiedSyncError, SyncErrorKind } from '../sync-error-kind';

export type ProviderErrorKind = 'auth' | 'rate_limited' | 'unreachable' | 'permanent';

export type ProviderErrorCode =
  | 'provider.auth_failed'
  | 'provider.access_denied'
  | 'provider.rate_limited'
  | 'provider.unreachable'
  | 'provider.host_not_found'
  | 'provider.address_not_allowed'
  | 'provider.timeout'
  | 'provider.server_error'
  | 'provider.bad_request'
  | 'provider.not_found'
  | 'provider.gone'
  | 'provider.conflict'
  | 'provider.too_large'
  | 'provider.bad_response'
  | 'provider.unsupported_operation';

const messages: Record<ProviderErrorCode, string> = {
  'provider.auth_failed': 'The provider refused the access token, even after a refresh. Reconnect the mailbox.',
  'provider.access_denied': 'The provider denied access: the authorisation lacks a permission. Reconnect the mailbox.',
  'provider.rate_limited': 'The provider is limiting requests; the work is postponed.',
  'provider.unreachable': 'The provider could not be reached.',
  'provider.host_not_found': 'The provider\'s host name could not be resolved.',
  'provider.address_not_allowed': 'The provider\'s address is on a private or reserved network, which this instance does not connect to.',
  'provider.timeout': 'The provider did not answer in time.',
  'provider.server_error': 'The provider answered with a server error.',
  'provider.bad_request': 'The provider refused the request as invalid.',
  'provider.not_found': 'The provider does not know this item.',
  'provider.gone': 'The provider no longer has this change state.',
  'provider.conflict': 'The provider refused the change as conflicting.',
  'provider.too_large': 'The item is larger than this instance fetches.',
  'provider.bad_response': 'The provider answered with something this instance cannot read.',
  'provider.unsupported_operation': 'The provider does not support this operation.',
};

export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  code: ProviderErrorCode;
  httpStatus?: number | null;
  /** The provider's own error code or reason (`rateLimitExceeded`, `SyncStateNotFound`, ...). */
  providerCode?: string | null;
  retryAfterSeconds?: number | null;
  message?: string;
  cause?: unknown;
}

export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly code: ProviderErrorCode;
  readonly httpStatus: number | null;
  readonly providerCode: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(init: ProviderErrorInit) {
    super(init.message ?? messages[init.code], init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.code = init.code;
    this.httpStatus = init.httpStatus ?? null;
    this.providerCode = init.providerCode ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
  }
}

/** The provider asked to slow down: postpone by `retryAfterSeconds` without counting a failure. */
export class ProviderRateLimited extends ProviderError {
  declare readonly retryAfterSeconds: number;
  constructor(init: Omit<ProviderErrorInit, 'kind' | 'code' | 'retryAfterSeconds'> & { retryAfterSeconds: number }) {
    super({ ...init, kind: 'rate_limited', code: 'provider.rate_limited' });
    this.name = 'ProviderRateLimited';
  }
}

export class ProviderAuthError extends ProviderError {
  constructor(init: Omit<ProviderErrorInit, 'kind'> & { code: 'provider.auth_failed' | 'provider.access_denied' }) {
    super({ ...init, kind: 'auth' });
    this.name = 'ProviderAuthError';
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}

export function isRateLimited(error: unknown): error is ProviderRateLimited {
  return error instanceof ProviderRateLimited;
}

/** A 404 from the provider: the message (or history id) is gone. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ProviderError && error.code === 'provider.not_found';
}

/** Bounds of a postponement: at least 1 s, at most a day; a missing or unreadable header gives the default. */
export const retryAfterBounds = { minSeconds: 1, maxSeconds: 86_400, defaultSeconds: 30 } as const;

/** `Retry-After` as seconds (delta-seconds or an HTTP date), clamped; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim().slice(0, 64);
  let seconds: number | null = null;
  if (/^\d{1,10}$/.test(text)) seconds = Number(text);
  else if (/^\d{1,10}\.\d{1,6}$/.test(text)) seconds = Math.ceil(Number(text));
  else if (/^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(text)) {
    const at = Date.parse(text);
    if (Number.isFinite(at)) seconds = Math.ceil((at - now.getTime()) / 1000);
  }
  if (seconds === null) return null;
  return Math.min(retryAfterBounds.maxSeconds, Math.max(retryAfterBounds.minSeconds, seconds));
}

/** Gmail's rate-limit reasons (403 or 429 with `error.errors[].reason`). */
const rateLimitReasons = new Set(['rateLimitExceeded', 'userRateLimitExceeded', 'quotaExceeded', 'dailyLimitExceeded', 'concurrentLimitExceeded']);
/** Daily quotas do not come back in seconds: wait an hour unless told otherwise. */
const longRateLimitReasons = new Set(['dailyLimitExceeded', 'quotaExceeded']);

export interface HttpFailure {
  status: number;
  /** The `Retry-After` header as received. */
  retryAfter: string | null;
  /** Provider codes and reasons read from the error body (Gmail `errors[].reason` and `status`, Graph `error.code`). */
  reasons: string[];
}

export interface Classified {
  kind: ProviderErrorKind;
  code: ProviderErrorCode;
  retryAfterSeconds: number | null;
}

/**
 * An HTTP error answer → kind and code. 401 is `auth` here (the client refreshes the token once
 * before it gives up); a 403 is a rate limit only when the provider says so, otherwise the grant lacks
 * a permission; 429 always, and 503 with `Retry-After`, postpone.
 */
export function classifyHttpFailure(failure: HttpFailure, now: Date = new Date()): Classified {
  const { status, reasons } = failure;
  const retryAfter = parseRetryAfter(failure.retryAfter, now);
  const rateReason = reasons.find((reason) => rateLimitReasons.has(reason));
  const fallbackWait = rateReason && longRateLimitReasons.has(rateReason) ? 3600 : retryAfterBounds.defaultSeconds;
  if (status === 429 || ((status === 403 || status === 400) && rateReason)) {
    return { kind: 'rate_limited', code: 'provider.rate_limited', retryAfterSeconds: retryAfter ?? fallbackWait };
  }
  if (status === 503 && retryAfter !== null) return { kind: 'rate_limited', code: 'provider.rate_limited', retryAfterSeconds: retryAfter };
  if (status === 401) return { kind: 'auth', code: 'provider.auth_failed', retryAfterSeconds: null };
  if (status === 403) return { kind: 'auth', code: 'provider.access_denied', retryAfterSeconds: null };
  if (status === 404) return { kind: 'permanent', code: 'provider.not_found', retryAfterSeconds: null };
  if (status === 410) return { kind: 'permanent', code: 'provider.gone', retryAfterSeconds: null };
  if (status === 409 || status === 412) return { kind: 'permanent', code: 'provider.conflict', retryAfterSeconds: null };
  if (status === 413) return { kind: 'permanent', code: 'provider.too_large', retryAfterSeconds: null };
  if (status === 408) return { kind: 'unreachable', code: 'provider.timeout', retryAfterSeconds: null };
  if (status >= 500) return { kind: 'unreachable', code: 'provider.server_error', retryAfterSeconds: null };
  return { kind: 'permanent', code: 'provider.bad_request', retryAfterSeconds: null };
}

export function httpFailureError(failure: HttpFailure, now: Date = new Date()): ProviderError {
  const classified = classifyHttpFailure(failure, now);
  const providerCode = failure.reasons[0]?.slice(0, 100) ?? null;
  if (classified.kind === 'rate_limited') {
    return new ProviderRateLimited({ httpStatus: failure.status, providerCode, retryAfterSeconds: classified.retryAfterSeconds ?? retryAfterBounds.defaultSeconds });
  }
  if (classified.kind === 'auth') {
    return new ProviderAuthError({ code: classified.code as 'provider.auth_failed' | 'provider.access_denied', httpStatus: failure.status, providerCode });
  }
  return new ProviderError({ kind: classified.kind, code: classified.code, httpStatus: failure.status, providerCode });
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

const networkCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'EADDRNOTAVAIL', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const timeoutCodes = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
const dnsCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'EAI_NONAME', 'EAI_FAIL']);

/**
 * A failure below HTTP (the guard's refusal, DNS, socket, TLS, timeout; undici wraps them in
 * `TypeError: fetch failed` with the cause inside) → a ProviderError. Walks the cause chain.
 */
export function networkFailureError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current; depth += 1) {
    if (current instanceof NetworkGuardError) {
      if (current.reason === 'host_not_found') return new ProviderError({ kind: 'unreachable', code: 'provider.host_not_found', cause: error });
      if (current.reason === 'blocked_address') return new ProviderError({ kind: 'unreachable', code: 'provider.address_not_allowed', cause: error });
      return new ProviderError({ kind: 'permanent', code: 'provider.bad_response', providerCode: current.reason, cause: error });
    }
    const name = field(current, 'name');
    const code = field(current, 'code');
    if (name === 'TimeoutError' || (typeof code === 'string' && timeoutCodes.has(code))) {
      return new ProviderError({ kind: 'unreachable', code: 'provider.timeout', cause: error });
    }
    if (typeof code === 'string' && dnsCodes.has(code)) return new ProviderError({ kind: 'unreachable', code: 'provider.host_not_found', cause: error });
    if (typeof code === 'string' && networkCodes.has(code)) {
      return new ProviderError({ kind: 'unreachable', code: 'provider.unreachable', providerCode: code, cause: error });
    }
    current = field(current, 'cause');
  }
  return new ProviderError({ kind: 'unreachable', code: 'provider.unreachable', cause: error });
}

/** What the orchestrator stores as the mailbox's `lastError` (minus `at` and `operation`). */
export interface ProviderErrorSummary {
  kind: ProviderErrorKind;
  code: ProviderErrorCode;
  message: string;
  httpStatus: number | null;
  retryAfterSeconds: number | null;
}

/** The summary of a ProviderError, or null for anything else (a bug, an abort: the caller decides). */
export function describeProviderError(error: unknown): ProviderErrorSummary | null {
  if (!(error instanceof ProviderError)) return null;
  return { kind: error.kind, code: error.code, message: error.message, httpStatus: error.httpStatus, retryAfterSeconds: error.retryAfterSeconds };
}

/**
 * A provider adapter's failure in the sync's classification (../sync-errors.ts), or null when the
 * error is not one of theirs. A rate limit is `rate_limit` with the provider's wait; the OAuth token
 * store's failures (`OAuthTokenError`: auth, config, transient) count as the grant's.
 */
export function classifyProviderSyncError(error: unknown): ClassifiedSyncError | null {
  if (error instanceof ProviderError) {
    const kind: SyncErrorKind =
      error.kind === 'auth'
        ? 'auth'
        : error.kind === 'rate_limited'
          ? 'rate_limit'
          : error.kind === 'permanent'
            ? 'protocol'
            : error.code === 'provider.timeout'
              ? 'timeout'
              : 'unreachable';
    return {
      kind,
      code: error.code,
      message: error.message,
      httpStatus: error.httpStatus,
      retryAfterMs: error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : null,
    };
  }
  const name = field(error, 'name');
  const tokenKind = field(error, 'kind');
  if (name === 'OAuthTokenError' && (tokenKind === 'auth' || tokenKind === 'config' || tokenKind === 'transient')) {
    const status = field(error, 'httpStatus');
    const message = field(error, 'message');
    return {
      kind: tokenKind === 'transient' ? 'unreachable' : 'auth',
      code: tokenKind === 'transient' ? 'provider.unreachable' : 'provider.auth_failed',
      message: typeof message === 'string' && message.length <= 300 ? message : messages['provider.auth_failed'],
      httpStatus: typeof status === 'number' ? status : null,
      retryAfterMs: null,
    };
  }
  return null;
}
