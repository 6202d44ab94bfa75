/**
 * The shape of a classified sync failure, shared by the classifier (sync-errors.ts) and the OAuth
 * providers' error table (providers/provider-errors.ts): a module of its own so that neither imports
 * the other for its types (sync-errors.ts calls the providers' classifier).
 */
export type SyncErrorKind = 'auth' | 'unreachable' | 'tls' | 'timeout' | 'rate_limit' | 'protocol' | 'internal';

export interface ClassifiedSyncError {
  kind: SyncErrorKind;
  /** A catalogue-style code (`imap.auth_failed`, `internal.error`, ...). */
  code: string;
  /** Safe to show the member and to log: never a password, token or resolved address. */
  message: string;
  /** HTTP status of a provider API answer; null for IMAP. */
  httpStatus: number | null;
  retryAfterMs: number | null;
}
