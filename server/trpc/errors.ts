/**
 * Maps whatever a procedure or the adapter threw to the catalogue's envelope. `TRPCError` never
 * leaves server/trpc: services throw AppError, zod input errors become 400 `request.bad_request`,
 * and anything else is a bug answered as an opaque 500.
 */
import { TRPCError } from '@trpc/server';
import { AppError, toAppError, type ErrorBody } from '../core/errors/app-error';
import { simplifyIssue } from '../core/errors/zod-issues';
import { log } from '../core/log';

function looksLikeAppError(value: unknown): value is AppError {
  return value instanceof AppError || (value instanceof Error && value.name === 'AppError' && 'code' in value && 'status' in value);
}

function zodIssuesOf(error: TRPCError): unknown[] | null {
  const cause = error.cause as { name?: string; issues?: unknown[] } | undefined;
  return error.code === 'BAD_REQUEST' && cause?.name === 'ZodError' && Array.isArray(cause.issues) ? cause.issues : null;
}

export function toAppErrorFromAny(error: unknown): AppError {
  if (looksLikeAppError(error)) return error;
  if (error instanceof TRPCError) {
    if (looksLikeAppError(error.cause)) return error.cause;
    const issues = zodIssuesOf(error);
    if (issues) {
      return new AppError('request.bad_request', { details: { issues: issues.map(simplifyIssue) } });
    }
    switch (error.code) {
      case 'PARSE_ERROR':
        return new AppError('request.bad_request', { message: 'The body is not valid JSON.', details: { reason: 'invalid_json' } });
      case 'NOT_FOUND':
        return new AppError('request.not_found');
      case 'UNSUPPORTED_MEDIA_TYPE':
        return new AppError('request.unsupported_media_type');
      case 'PAYLOAD_TOO_LARGE':
        return new AppError('request.payload_too_large');
      case 'METHOD_NOT_SUPPORTED':
        return new AppError('request.method_not_allowed');
      default:
        break;
    }
  }
  // The rest (a database that gave no connection in time, or a bug) is core's to map.
  return toAppError(error instanceof TRPCError ? (error.cause ?? error) : error);
}

/**
 * Called once per failed request by each transport: a 500 is a bug and deserves an error line; a
 * refusal for load (503 `internal.busy`, `auth.busy`) is the instance shedding work, logged in
 * summary (below); the catalogue's other 5xx (an upstream that refused or could not be reached:
 * 502) are expected failures, a warning with their code and no stack.
 */
export function logIfUnexpected(error: unknown, path?: string): void {
  const appError = toAppErrorFromAny(error);
  if (appError.status === 500) {
    const cause = error instanceof TRPCError && error.cause ? error.cause : error;
    log.error({ err: cause, path }, 'unexpected error answered as 500');
  } else if (refusalsForLoad.has(appError.code)) {
    logRefusedForLoad(appError, path);
  } else if (appError.status > 500) {
    log.warn({ code: appError.code, status: appError.status, path }, 'request failed upstream');
  }
}

/** The catalogue's refusals for load: the instance's own limits, not a failure. */
const refusalsForLoad: ReadonlySet<string> = new Set(['internal.busy', 'auth.busy']);
/** How often, at most, refusals for load of one code and reason are logged. */
const refusedForLoadLogSeconds = 10;
const refusedForLoadLines = new Map<string, { loggedAt: number; since: number }>();

/**
 * A refusal for load (a webhook flood, a database without a free connection, a sign-in flood past the password
 * gate) comes in floods, and a line per refused request would turn a flood of calls into a flood of log lines. One
 * line per code and reason every 10 s at most, with how many were refused since the last one.
 */
function logRefusedForLoad(appError: AppError, path: string | undefined): void {
  const reason = typeof appError.details.reason === 'string' ? appError.details.reason : null;
  const key = `${appError.code} ${reason ?? ''}`;
  const now = Date.now();
  const last = refusedForLoadLines.get(key);
  if (last && now >= last.loggedAt && now - last.loggedAt < refusedForLoadLogSeconds * 1000) {
    last.since += 1;
    return;
  }
  log.warn({ code: appError.code, status: appError.status, reason, path, refusedSinceLastLine: last?.since ?? 0 }, 'request refused for load');
  refusedForLoadLines.set(key, { loggedAt: now, since: 0 });
}

/** Keeps what a client needs from a zod issue: where, what kind, and the human message. */
export function envelopeOf(error: unknown): { status: number; body: ErrorBody; headers: Record<string, string> } {
  const appError = toAppErrorFromAny(error);
  return { status: appError.status, body: appError.toBody(), headers: appError.headers };
}
