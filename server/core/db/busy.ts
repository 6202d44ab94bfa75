/**
 * "The database could not give this request a connection in time": the pool's acquire timeout
 * (every connection busy, for instance held by slow exports) or a new connection that could not be
 * opened within it. The pool (index.ts) raises it in place of pg's own error, so every path (Prisma,
 * pg, the export's cursor) carries the same error to `toAppError`, which answers 503 `internal.busy`
 * rather than a request hanging on the pool.
 *
 * Pure (no pg import): the error mapping in core/errors reads it without loading the driver.
 */

/** pg-pool's messages for a pool wait and a connection attempt that ran out of time (pg-pool 3). */
const acquireTimeoutMessages: ReadonlySet<string> = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);

export class DatabaseBusyError extends Error {
  constructor(cause: unknown, message = 'no database connection within the acquire timeout') {
    super(message, { cause });
    this.name = 'DatabaseBusyError';
  }
}

export function isAcquireTimeout(error: unknown): boolean {
  return error instanceof Error && acquireTimeoutMessages.has(error.message);
}

/** pg's acquire timeout as a DatabaseBusyError; any other error as it is. */
export function busyOr(error: unknown): unknown {
  return isAcquireTimeout(error) ? new DatabaseBusyError(error) : error;
}

/**
 * Prisma's transaction that ran out of time (`P2028`): one still running past its `timeout` (5 s unless
 * the caller set one), rolled back by Prisma, or one that could not start within its `maxWait`. On a
 * machine too loaded to finish a few statements in that time the request had better be tried again
 * than answered as our failure. Other `P2028` errors (a transaction used after its commit) are bugs.
 */
const transactionOutOfTime = /expired transaction|Unable to start a transaction in the given time/;

export function isTransactionOutOfTime(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'P2028' && transactionOutOfTime.test(error.message);
}

/**
 * A DatabaseBusyError, whether thrown as it is or wrapped by a library (looked for along `cause`), or a
 * Prisma transaction that ran out of time: the database did not serve the request in time.
 */
export function isDatabaseBusy(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth += 1) {
    if (current instanceof DatabaseBusyError || isTransactionOutOfTime(current)) return true;
  }
  return false;
}
