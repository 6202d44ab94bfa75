/**
 * Transactions the database may abort for reasons that a second try fixes: a deadlock (40P01) or a
 * serialization failure (40001). Anything else, and any AppError, is passed through at once.
 */
import { isAppError } from '../errors/app-error';
import { db, type Tx } from './index';
import { sqlStateOf, sqlStates } from './sql-state';

const retriedStates: ReadonlySet<string> = new Set([sqlStates.deadlockDetected, sqlStates.serializationFailure]);

export function isRetriedConflict(error: unknown): boolean {
  return !isAppError(error) && retriedStates.has(sqlStateOf(error) ?? '');
}

export interface RetriedTransactionOptions {
  /** Transaction timeout in ms (default 15 s). */
  timeout?: number;
  /** Longest wait for a pool connection, in ms (default 10 s). */
  maxWait?: number;
  /** Tries in all (default 3). */
  attempts?: number;
}

/** A Prisma interactive transaction, tried again when the database aborts it for a deadlock or a serialization failure. */
export async function inRetriedTransaction<T>(work: (tx: Tx) => Promise<T>, options: RetriedTransactionOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db().$transaction(work, { timeout: options.timeout ?? 15_000, maxWait: options.maxWait ?? 10_000 });
    } catch (error) {
      if (attempt >= attempts || !isRetriedConflict(error)) throw error;
    }
  }
}
