import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../core/net/network-guard';
import { backoffMs, classifySyncError, internalFailureCause, movesToError, SyncError } from './sync-errors';

const imapError = (fields: Record<string, unknown>) => Object.assign(new Error('x'), fields);

describe('classifySyncError', () => {
  it.each([
    ['login refused', imapError({ authenticationFailed: true, responseText: 'Authentication failed.' }), 'auth', 'imap.auth_failed'],
    ['refused connection', imapError({ code: 'ECONNREFUSED' }), 'unreachable', 'imap.unreachable'],
    ['reset', imapError({ code: 'ECONNRESET' }), 'unreachable', 'imap.unreachable'],
    ['closed', imapError({ code: 'NoConnection' }), 'unreachable', 'imap.unreachable'],
    ['unknown host', imapError({ code: 'ENOTFOUND' }), 'unreachable', 'imap.host_not_found'],
    ['self-signed', imapError({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'tls', 'imap.tls_failed'],
    ['connect timeout', imapError({ code: 'CONNECT_TIMEOUT' }), 'timeout', 'imap.unreachable'],
    ['socket timeout', imapError({ code: 'ETIMEOUT' }), 'timeout', 'imap.unreachable'],
    ['throttled', imapError({ code: 'ETHROTTLE' }), 'rate_limit', 'imap.unreachable'],
    ['LIMIT response', imapError({ responseStatus: 'NO', serverResponseCode: 'LIMIT', executedCommand: 'A5 UID FETCH 1:* (FLAGS)' }), 'rate_limit', 'imap.unreachable'],
    ['command refused', imapError({ responseStatus: 'NO', executedCommand: 'A5 SELECT "Gone"' }), 'protocol', 'imap.unreachable'],
    ['guard refusal', new NetworkGuardError('blocked_address', 'blocked'), 'unreachable', 'imap.unreachable'],
    ['database busy', Object.assign(new Error('busy'), { name: 'DatabaseBusyError' }), 'internal', 'internal.error'],
    ['plain bug', new TypeError('undefined is not a function'), 'internal', 'internal.error'],
    ['classified already', new SyncError({ kind: 'auth', code: 'imap.auth_failed', message: 'No password stored.' }), 'auth', 'imap.auth_failed'],
  ])('%s → %s %s', (_name, error, kind, code) => {
    const classified = classifySyncError(error);
    expect(classified).toMatchObject({ kind, code });
    expect(classified.message.length).toBeGreaterThan(0);
  });

  it('never quotes a hidden text from the server', () => {
    const classified = classifySyncError(imapError({ authenticationFailed: true, responseText: 'bad password hunter2' }), { hide: ['hunter2'] });
    expect(classified.message).not.toContain('hunter2');
  });
});

describe('internalFailureCause: what the operator reads of a failure on our side', () => {
  it('names a database error, its SQL state and its first line (a deadlock, through Prisma)', () => {
    const deadlock = Object.assign(new Error('\nInvalid `prisma.$executeRawUnsafe()` invocation:\n\nRaw query failed. Code: `40P01`. Message: `deadlock detected`'), {
      name: 'PrismaClientKnownRequestError',
      code: 'P2010',
      meta: { driverAdapterError: { cause: { originalCode: '40P01' } } },
    });
    expect(internalFailureCause(deadlock)).toEqual({ name: 'PrismaClientKnownRequestError', sqlState: '40P01', message: 'Invalid `prisma.$executeRawUnsafe()` invocation:' });
  });

  it('names a plain bug without a SQL state', () => {
    expect(internalFailureCause(new TypeError('undefined is not a function'))).toEqual({ name: 'TypeError', sqlState: null, message: 'undefined is not a function' });
  });

  it('leaves out a first line that holds a hidden text', () => {
    expect(internalFailureCause(new Error('login as team with hunter2 failed'), { hide: ['hunter2'] })).toEqual({ name: 'Error', sqlState: null, message: null });
  });
});

describe('movesToError and backoffMs', () => {
  it.each([
    ['auth', 1, true],
    ['unreachable', 1, false],
    ['unreachable', 2, false],
    ['unreachable', 3, true],
    ['timeout', 3, true],
    ['internal', 10, false],
  ] as const)('%s after %i failures → %s', (kind, failures, expected) => {
    expect(movesToError(kind, failures)).toBe(expected);
  });

  it.each([
    [1, null, 30_000],
    [2, null, 60_000],
    [3, null, 120_000],
    [7, null, 1_800_000],
    [30, null, 1_800_000],
    [1, 300_000, 300_000],
    [1, 10_000, 30_000],
  ])('failure %i (Retry-After %s) waits %i ms', (failures, retryAfter, expected) => {
    expect(backoffMs(failures, retryAfter)).toBe(expected);
  });
});
