import { describe, expect, it } from 'vitest';
import { toAppError } from '../errors/app-error';
import { DatabaseBusyError, isDatabaseBusy, isTransactionOutOfTime } from './busy';

/** Prisma's known request error, as far as the mapping reads it (code and message). */
const prismaError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what counts as a busy database', () => {
  it('a transaction past its timeout, or one that could not start within its maxWait (P2028)', () => {
    const expired = prismaError('P2028', 'Transaction API error: Transaction already closed: A query cannot be executed on an expired transaction. The timeout for this transaction was 5000 ms, however 5012 ms passed since the start of the transaction.');
    const unstarted = prismaError('P2028', 'Transaction API error: Unable to start a transaction in the given time.');
    for (const error of [expired, unstarted]) {
      expect(isTransactionOutOfTime(error)).toBe(true);
      expect(toAppError(error)).toMatchObject({ code: 'internal.busy', status: 503, details: { reason: 'database', retryAfterSeconds: 2 }, headers: { 'Retry-After': '2' } });
    }
  });

  it('not a transaction used after its commit (a bug, 500), nor another code with the same words', () => {
    expect(toAppError(prismaError('P2028', 'Transaction API error: Transaction already closed: A query cannot be executed on a committed transaction.')).code).toBe('internal.error');
    expect(toAppError(prismaError('P2002', 'expired transaction')).code).toBe('internal.error');
  });

  it('the pool’s acquire timeout, as it is or wrapped', () => {
    const busy = new DatabaseBusyError(new Error('timeout exceeded when trying to connect'));
    expect(isDatabaseBusy(busy)).toBe(true);
    expect(isDatabaseBusy(new Error('query failed', { cause: busy }))).toBe(true);
    expect(isDatabaseBusy(new Error('something else'))).toBe(false);
  });
});
