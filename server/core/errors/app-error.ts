/**
 * The only error a service throws on purpose. Anything else is a bug and is answered as a generic
 * 500 that reveals nothing (see toErrorBody).
 */
import { isDatabaseBusy } from '../db/busy';
import { defaultMessageOf, statusOf, type ErrorCode } from './catalogue';

export type ErrorDetails = Record<string, unknown>;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: ErrorDetails };
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetails;
  /** Response headers that belong to this error (Retry-After). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: { message?: string; details?: ErrorDetails; headers?: Record<string, string> } = {}) {
    super(options.message ?? defaultMessageOf(code));
    this.name = 'AppError';
    this.code = code;
    this.status = statusOf(code);
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
    // A client's error (4xx) is an answer, not a fault: its stack is never logged, but tRPC copies it onto the error it
    // wraps, and reading a stack formats it, through Next.js's source-mapping hook in the web process (≈ 30 µs, an
    // eighth of the CPU of a refused key). Set as a plain string, it costs nothing to read.
    if (this.status < 500) this.stack = `AppError: ${this.code}: ${this.message}`;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }
}

export function appError(
  code: ErrorCode,
  options?: { message?: string; details?: ErrorDetails; headers?: Record<string, string> },
): AppError {
  return new AppError(code, options);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * Any thrown value as an AppError: known errors pass through, a database that gave no connection in
 * time, or a transaction that ran out of time, is 503 `internal.busy` (the one place pg's acquire
 * timeout and Prisma's transaction timeout become an answer), everything else is an opaque 500.
 */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error;
  if (isDatabaseBusy(error)) return busyError(2, { reason: 'database' });
  return new AppError('internal.error');
}

/** 503 `internal.busy` with its Retry-After. */
export function busyError(retryAfterSeconds: number, details: ErrorDetails = {}): AppError {
  return new AppError('internal.busy', { details: { ...details, retryAfterSeconds }, headers: { 'Retry-After': String(retryAfterSeconds) } });
}

export function rateLimitError(
  code: 'api_key.rate_limited' | 'auth.too_many_attempts' | 'request.rate_limited' | 'request.throttled',
  retryAfterSeconds: number,
  details: ErrorDetails = {},
): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new AppError(code, {
    details: { ...details, retryAfterSeconds: seconds },
    headers: { 'Retry-After': String(seconds) },
  });
}
