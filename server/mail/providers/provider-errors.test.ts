import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../../core/net/network-guard';
import {
  classifyHttpFailure,
  classifyProviderSyncError,
  describeProviderError,
  httpFailureError,
  networkFailureError,
  parseRetryAfter,
  ProviderAuthError,
  ProviderRateLimited,
  type HttpFailure,
} from './provider-errors';

const now = new Date('2026-03-01T12:00:00Z');

describe('parseRetryAfter', () => {
  it.each([
    ['7', 7],
    ['0', 1],
    ['2.5', 3],
    ['999999', 86_400],
    ['Sun, 01 Mar 2026 12:01:30 GMT', 90],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 1],
    ['soon', null],
    ['-5', null],
    ['', null],
    [null, null],
  ])('%s → %s', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});

describe('classifyHttpFailure', () => {
  const cases: [string, HttpFailure, string, string, number | null][] = [
    ['Gmail 429', { status: 429, retryAfter: '7', reasons: ['rateLimitExceeded', 'RESOURCE_EXHAUSTED'] }, 'rate_limited', 'provider.rate_limited', 7],
    ['Graph 429 without header', { status: 429, retryAfter: null, reasons: ['ApplicationThrottled'] }, 'rate_limited', 'provider.rate_limited', 30],
    ['Gmail 403 userRateLimitExceeded', { status: 403, retryAfter: null, reasons: ['userRateLimitExceeded', 'PERMISSION_DENIED'] }, 'rate_limited', 'provider.rate_limited', 30],
    ['Gmail 403 rateLimitExceeded with header', { status: 403, retryAfter: '20', reasons: ['rateLimitExceeded'] }, 'rate_limited', 'provider.rate_limited', 20],
    ['Gmail 403 dailyLimitExceeded', { status: 403, retryAfter: null, reasons: ['dailyLimitExceeded'] }, 'rate_limited', 'provider.rate_limited', 3600],
    ['503 with Retry-After', { status: 503, retryAfter: '12', reasons: [] }, 'rate_limited', 'provider.rate_limited', 12],
    ['503 without Retry-After', { status: 503, retryAfter: null, reasons: [] }, 'unreachable', 'provider.server_error', null],
    ['401', { status: 401, retryAfter: null, reasons: ['authError', 'UNAUTHENTICATED'] }, 'auth', 'provider.auth_failed', null],
    ['Gmail 403 insufficientPermissions', { status: 403, retryAfter: null, reasons: ['insufficientPermissions'] }, 'auth', 'provider.access_denied', null],
    ['Graph 403 ErrorAccessDenied', { status: 403, retryAfter: null, reasons: ['ErrorAccessDenied'] }, 'auth', 'provider.access_denied', null],
    ['404', { status: 404, retryAfter: null, reasons: ['notFound'] }, 'permanent', 'provider.not_found', null],
    ['Graph 410 SyncStateNotFound', { status: 410, retryAfter: null, reasons: ['SyncStateNotFound'] }, 'permanent', 'provider.gone', null],
    ['409', { status: 409, retryAfter: null, reasons: ['duplicate'] }, 'permanent', 'provider.conflict', null],
    ['400', { status: 400, retryAfter: null, reasons: ['invalidArgument'] }, 'permanent', 'provider.bad_request', null],
    ['413', { status: 413, retryAfter: null, reasons: [] }, 'permanent', 'provider.too_large', null],
    ['408', { status: 408, retryAfter: null, reasons: [] }, 'unreachable', 'provider.timeout', null],
    ['500', { status: 500, retryAfter: null, reasons: ['backendError'] }, 'unreachable', 'provider.server_error', null],
    ['502', { status: 502, retryAfter: null, reasons: [] }, 'unreachable', 'provider.server_error', null],
  ];
  it.each(cases)('%s', (_name, failure, kind, code, retryAfterSeconds) => {
    expect(classifyHttpFailure(failure, now)).toEqual({ kind, code, retryAfterSeconds });
  });

  it('builds the typed error of each kind', () => {
    const limited = httpFailureError({ status: 429, retryAfter: '9', reasons: ['TooManyRequests'] }, now);
    expect(limited).toBeInstanceOf(ProviderRateLimited);
    expect(limited).toMatchObject({ retryAfterSeconds: 9, providerCode: 'TooManyRequests', httpStatus: 429 });
    expect(httpFailureError({ status: 401, retryAfter: null, reasons: [] }, now)).toBeInstanceOf(ProviderAuthError);
    expect(describeProviderError(limited)).toEqual({ kind: 'rate_limited', code: 'provider.rate_limited', message: limited.message, httpStatus: 429, retryAfterSeconds: 9 });
    expect(describeProviderError(new Error('bug'))).toBeNull();
  });
});

describe('networkFailureError', () => {
  const wrapped = (cause: unknown) => Object.assign(new TypeError('fetch failed'), { cause });
  const coded = (code: string) => Object.assign(new Error(code), { code });
  it.each([
    ['guard: blocked', new NetworkGuardError('blocked_address', 'x'), 'unreachable', 'provider.address_not_allowed'],
    ['guard: not found', new NetworkGuardError('host_not_found', 'x'), 'unreachable', 'provider.host_not_found'],
    ['guard: bad URL', new NetworkGuardError('unsupported_url', 'x'), 'permanent', 'provider.bad_response'],
    ['undici wrapping a refused connection', wrapped(coded('ECONNREFUSED')), 'unreachable', 'provider.unreachable'],
    ['undici wrapping the guard', wrapped(new NetworkGuardError('blocked_address', 'x')), 'unreachable', 'provider.address_not_allowed'],
    ['DNS', wrapped(coded('ENOTFOUND')), 'unreachable', 'provider.host_not_found'],
    ['connect timeout', wrapped(coded('UND_ERR_CONNECT_TIMEOUT')), 'unreachable', 'provider.timeout'],
    ['deadline', Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' }), 'unreachable', 'provider.timeout'],
    ['anything else', new Error('boom'), 'unreachable', 'provider.unreachable'],
  ])('%s', (_name, error, kind, code) => {
    expect(networkFailureError(error)).toMatchObject({ kind, code });
  });

  it('never quotes the cause in its message', () => {
    const error = networkFailureError(wrapped(Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:443'), { code: 'ECONNREFUSED' })));
    expect(error.message).not.toContain('10.1.2.3');
  });
});

describe('classifyProviderSyncError', () => {
  it('maps each kind onto the sync classification', () => {
    expect(classifyProviderSyncError(new ProviderRateLimited({ retryAfterSeconds: 7, httpStatus: 429 }))).toMatchObject({ kind: 'rate_limit', code: 'provider.rate_limited', retryAfterMs: 7000, httpStatus: 429 });
    expect(classifyProviderSyncError(httpFailureError({ status: 401, retryAfter: null, reasons: [] }))).toMatchObject({ kind: 'auth', code: 'provider.auth_failed' });
    expect(classifyProviderSyncError(networkFailureError(new NetworkGuardError('blocked_address', 'x')))).toMatchObject({ kind: 'unreachable', code: 'provider.address_not_allowed' });
    expect(classifyProviderSyncError(networkFailureError(Object.assign(new Error('t'), { name: 'TimeoutError' })))).toMatchObject({ kind: 'timeout' });
    expect(classifyProviderSyncError(httpFailureError({ status: 400, retryAfter: null, reasons: [] }))).toMatchObject({ kind: 'protocol', code: 'provider.bad_request' });
    expect(classifyProviderSyncError(new Error('bug'))).toBeNull();
  });

  it('reads the OAuth token store\'s failures', () => {
    const tokenError = (kind: string) => Object.assign(new Error('The grant was revoked or expired: connect the account again.'), { name: 'OAuthTokenError', kind, code: 'invalid_grant', httpStatus: 400 });
    expect(classifyProviderSyncError(tokenError('auth'))).toMatchObject({ kind: 'auth', code: 'provider.auth_failed', httpStatus: 400 });
    expect(classifyProviderSyncError(tokenError('config'))).toMatchObject({ kind: 'auth' });
    expect(classifyProviderSyncError(tokenError('transient'))).toMatchObject({ kind: 'unreachable', code: 'provider.unreachable' });
  });
});
