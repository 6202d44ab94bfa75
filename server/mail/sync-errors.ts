/**
 * A failed sync, classified for the mailbox's `lastError` and for the backoff: pure, so the table of
 * error shapes is tested (sync-errors.test.ts).
 *
 * Kinds: `auth` (credentials refused or missing: retrying will not help until the member reconnects;
 * the mailbox moves to `error` at once), `unreachable` (DNS, refused, reset, closed, guard), `tls`,
 * `timeout`, `rate_limit` (the server or provider asks us to slow down; `retryAfterMs` when it said
 * how long), `protocol` (the server answered something we cannot use), `internal` (our own bug or the
 * database: never blamed on the member's server, never moves the mailbox to error by itself).
 */
import { sqlStateOf } from '../core/db/sql-state';
import { classifyImapError } from './imap/classify-imap-error';
import { classifyProviderSyncError } from './providers/provider-errors';
import type { ClassifiedSyncError, SyncErrorKind } from './sync-error-kind';

export type { ClassifiedSyncError, SyncErrorKind } from './sync-error-kind';

/** An error the sync raises itself with its classification already decided. */
export class SyncError extends Error {
  readonly classified: ClassifiedSyncError;
  constructor(classified: Partial<ClassifiedSyncError> & Pick<ClassifiedSyncError, 'kind' | 'code' | 'message'>) {
    super(classified.message);
    this.name = 'SyncError';
    this.classified = { httpStatus: null, retryAfterMs: null, ...classified };
  }
}

function field(error: unknown, name: string): unknown {
  return error !== null && typeof error === 'object' ? (error as Record<string, unknown>)[name] : undefined;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Node's database driver and Prisma errors: ours, not the mail server's. */
function isDatabaseError(error: unknown): boolean {
  const name = field(error, 'name');
  const code = field(error, 'code');
  if (typeof name === 'string' && name.startsWith('PrismaClient')) return true;
  if (name === 'DatabaseBusyError' || name === 'DriverAdapterError') return true;
  return typeof code === 'string' && /^(P\d{4}|[0-9A-Z]{5})$/.test(code) && field(error, 'severity') !== undefined;
}

const imapReasonKinds: Record<string, SyncErrorKind> = {
  timeout: 'timeout',
  starttls_timeout: 'timeout',
  throttled: 'rate_limit',
  not_imap: 'protocol',
  server_unavailable: 'unreachable',
};

export function classifySyncError(error: unknown, options: { hide?: (string | null | undefined)[] } = {}): ClassifiedSyncError {
  if (error instanceof SyncError) return error.classified;
  const provider = classifyProviderSyncError(error);
  if (provider) return provider;
  if (isDatabaseError(error)) {
    return { kind: 'internal', code: 'internal.error', message: 'The sync could not write to the database.', httpStatus: null, retryAfterMs: null };
  }
  const looksLikeMailError =
    field(error, 'authenticationFailed') !== undefined ||
    field(error, 'responseStatus') !== undefined ||
    field(error, 'serverResponseCode') !== undefined ||
    typeof field(error, 'code') === 'string' ||
    (error instanceof Error && error.name === 'NetworkGuardError');
  if (!looksLikeMailError) {
    return { kind: 'internal', code: 'internal.error', message: 'The sync failed unexpectedly.', httpStatus: null, retryAfterMs: null };
  }
  // A command refused mid-session (NO/BAD outside LOGIN) is the server refusing what we asked.
  const command = textOf(field(error, 'executedCommand'));
  if ((field(error, 'responseStatus') === 'NO' || field(error, 'responseStatus') === 'BAD') && !/^\S+ (LOGIN|AUTHENTICATE)\b/i.test(command) && field(error, 'authenticationFailed') !== true) {
    const serverCode = textOf(field(error, 'serverResponseCode'));
    if (serverCode === 'LIMIT' || serverCode === 'INUSE') {
      return { kind: 'rate_limit', code: 'imap.unreachable', message: 'The server is limiting this account; the sync will try again later.', httpStatus: null, retryAfterMs: null };
    }
    return { kind: 'protocol', code: 'imap.unreachable', message: 'The server refused a command of the sync.', httpStatus: null, retryAfterMs: null };
  }
  const imap = classifyImapError(error, options);
  const kind: SyncErrorKind =
    imap.code === 'imap.auth_failed' ? 'auth' : imap.code === 'imap.tls_failed' ? 'tls' : (imapReasonKinds[imap.reason] ?? 'unreachable');
  return { kind, code: imap.code, message: imap.detail, httpStatus: null, retryAfterMs: null };
}

/**
 * What the operator's log says of an `internal` failure, whose classification tells the member only that the sync
 * failed on our side: the error's name, its SQL state when the database raised it, and its first line unless a
 * hidden text (the account's password, a token) is in it. Without it nothing said why (a deadlock, seen once).
 */
export function internalFailureCause(error: unknown, options: { hide?: (string | null | undefined)[] } = {}): { name: string; sqlState: string | null; message: string | null } {
  const name = textOf(field(error, 'name')) || (error instanceof Error ? 'Error' : typeof error);
  const firstLine = (error instanceof Error ? error.message : textOf(error)).split('\n').map((line) => line.trim()).find(Boolean)?.slice(0, 300) ?? null;
  const holdsSecret = firstLine !== null && (options.hide ?? []).some((secret) => secret && firstLine.includes(secret));
  return { name, sqlState: sqlStateOf(error), message: holdsSecret ? null : firstLine };
}

/** Consecutive failures after which a mailbox moves to `error` (auth failures move at once). */
export const failuresBeforeError = 3;

export function movesToError(kind: SyncErrorKind, consecutiveFailures: number): boolean {
  // A server or provider asking us to slow down postpones the work (its Retry-After); it is no failure.
  if (kind === 'internal' || kind === 'rate_limit') return false;
  return kind === 'auth' || consecutiveFailures >= failuresBeforeError;
}

/** Backoff before the next attempt: 30 s doubling to 30 min; a server's own Retry-After wins when longer. */
export function backoffMs(consecutiveFailures: number, retryAfterMs: number | null = null): number {
  const base = 30_000 * 2 ** Math.max(0, Math.min(consecutiveFailures - 1, 10));
  const capped = Math.min(base, 30 * 60_000);
  return retryAfterMs !== null && retryAfterMs > capped ? Math.min(retryAfterMs, 6 * 3600_000) : capped;
}
