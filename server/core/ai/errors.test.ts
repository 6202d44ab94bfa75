/** Error classification: statuses, vendor codes, Retry-After, aborts, and no secret in what is kept. */
import { APICallError, NoObjectGeneratedError } from 'ai';
import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../net/network-guard';
import { AiCallError, aiErrorFromStatus, classifyAiError, failureFamily, redactSecrets, retryAfterMsOf } from './errors';

function apiError(statusCode: number | undefined, responseBody = '', responseHeaders: Record<string, string> = {}) {
  return new APICallError({
    message: `Incorrect API key provided: sk-live-TOPSECRET-000. ${responseBody}`,
    url: 'https://api.example.com/v1/chat/completions?key=sk-live-TOPSECRET-000',
    requestBodyValues: { model: 'm', messages: [{ role: 'user', content: 'private mail body' }] },
    statusCode,
    responseHeaders,
    responseBody,
  });
}

describe('retryAfterMsOf', () => {
  it('reads seconds, HTTP dates and retry-after-ms, bounded', () => {
    expect(retryAfterMsOf({ 'Retry-After': '7' })).toBe(7000);
    expect(retryAfterMsOf({ 'retry-after': '1.5' })).toBe(1500);
    expect(retryAfterMsOf({ 'retry-after-ms': '250', 'retry-after': '9' })).toBe(250);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMsOf({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
    expect(retryAfterMsOf({ 'retry-after': 'Wed, 31 Dec 2025 00:00:00 GMT' }, now)).toBe(0);
    expect(retryAfterMsOf({ 'retry-after': '999999999' })).toBe(24 * 60 * 60 * 1000);
    expect(retryAfterMsOf({ 'retry-after': 'soon' })).toBeNull();
    expect(retryAfterMsOf({})).toBeNull();
    expect(retryAfterMsOf(undefined)).toBeNull();
  });
});

describe('classifyAiError', () => {
  it('classifies statuses', () => {
    expect(classifyAiError(apiError(429, '', { 'retry-after': '3' }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 3000 });
    expect(classifyAiError(apiError(429))).toMatchObject({ kind: 'rate_limited', retryAfterMs: null });
    expect(classifyAiError(apiError(503, '', { 'retry-after': '20' }))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 20_000 });
    expect(classifyAiError(apiError(503))).toMatchObject({ kind: 'transient', code: 'server_error' });
    expect(classifyAiError(apiError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'))).toMatchObject({
      kind: 'transient',
      vendorCode: 'overloaded_error',
    });
    expect(classifyAiError(apiError(408))).toMatchObject({ kind: 'transient' });
    expect(classifyAiError(apiError(401))).toMatchObject({ kind: 'auth' });
    expect(classifyAiError(apiError(403))).toMatchObject({ kind: 'auth' });
    expect(classifyAiError(apiError(404))).toMatchObject({ kind: 'bad_request', code: 'model_not_found' });
    expect(classifyAiError(apiError(422))).toMatchObject({ kind: 'bad_request', code: 'bad_request' });
    expect(classifyAiError(apiError(undefined))).toMatchObject({ kind: 'transient', code: 'network' });
  });

  it('reads vendor codes: Google’s bad key is a 400 with reason API_KEY_INVALID, content filters are refusals', () => {
    const google = JSON.stringify({
      error: { code: 400, message: 'API key not valid.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' }] },
    });
    expect(classifyAiError(apiError(400, google))).toMatchObject({ kind: 'auth', vendorCode: 'API_KEY_INVALID' });
    const filtered = JSON.stringify({ error: { message: 'filtered', type: 'invalid_request_error', code: 'content_filter' } });
    expect(classifyAiError(apiError(400, filtered))).toMatchObject({ kind: 'refused', code: 'content_filter' });
    expect(aiErrorFromStatus(400, 'ai_vendor_a', JSON.stringify({ error: { code: 'content_policy_violation' } }), undefined)).toMatchObject({ kind: 'refused' });
  });

  it('keeps the vendor code only when it is a bare identifier', () => {
    const body = JSON.stringify({ error: { code: 'sk-live-TOPSECRET-000 is wrong', type: 'invalid request' } });
    expect(classifyAiError(apiError(400, body)).vendorCode).toBeNull();
  });

  it('never keeps the vendor’s text, the URL, the request body or a cause', () => {
    const error = classifyAiError(apiError(401, '{"error":{"message":"Incorrect API key provided: sk-live-TOPSECRET-000","code":"invalid_api_key"}}'), { provider: 'ai_vendor_a' });
    const everything = [error.message, JSON.stringify(error), String(error), error.stack ?? '', JSON.stringify(Object.getOwnPropertyDescriptors(error))].join('\n');
    expect(everything).not.toContain('TOPSECRET');
    expect(everything).not.toContain('private mail body');
    expect(everything).not.toContain('api.example.com');
    expect((error as { cause?: unknown }).cause).toBeUndefined();
    expect(error.toJSON()).toEqual({
      name: 'AiCallError',
      kind: 'auth',
      code: 'auth',
      provider: 'ai_vendor_a',
      status: 401,
      retryAfterMs: null,
      vendorCode: 'invalid_api_key',
      message: 'The AI provider refused the API key. (401, invalid_api_key)',
    });
  });

  it('tells a timeout from a cancellation by the call’s signal', () => {
    const timedOut = new AbortController();
    timedOut.abort(new DOMException('The operation timed out.', 'TimeoutError'));
    expect(classifyAiError(new Error('whatever'), { signal: timedOut.signal })).toMatchObject({ kind: 'transient', code: 'timeout' });
    const cancelled = new AbortController();
    cancelled.abort();
    expect(classifyAiError(new Error('whatever'), { signal: cancelled.signal })).toMatchObject({ kind: 'transient', code: 'aborted' });
  });

  it('classifies the guard’s refusals, network errors, bad outputs and the unknown', () => {
    expect(classifyAiError(new TypeError('fetch failed', { cause: new NetworkGuardError('blocked_address', 'x') }))).toMatchObject({ kind: 'blocked' });
    expect(classifyAiError(new NetworkGuardError('host_not_found', 'x'))).toMatchObject({ kind: 'transient', code: 'host_not_found' });
    expect(classifyAiError(new NetworkGuardError('unsupported_url', 'x'))).toMatchObject({ kind: 'blocked', code: 'invalid_base_url' });
    expect(classifyAiError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }))).toMatchObject({ kind: 'transient', code: 'network' });
    expect(classifyAiError(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'UND_ERR_SOCKET' }) }))).toMatchObject({ code: 'network' });
    const noObject = new NoObjectGeneratedError({ message: 'no', text: '{}', response: { id: 'r', timestamp: new Date(), modelId: 'm' }, usage: undefined as never, finishReason: 'stop' });
    expect(classifyAiError(noObject)).toMatchObject({ kind: 'invalid_output' });
    expect(classifyAiError(new Error('???'))).toMatchObject({ kind: 'transient', code: 'unknown', message: 'The AI call failed.' });
    const existing = new AiCallError('auth');
    expect(classifyAiError(existing)).toBe(existing);
  });
});

describe('failureFamily', () => {
  it('maps kinds to the engine’s families', () => {
    expect(failureFamily(new AiCallError('rate_limited'))).toBe('rate_limited');
    expect(failureFamily(new AiCallError('server_error'))).toBe('transient');
    expect(failureFamily(new AiCallError('timeout'))).toBe('transient');
    expect(failureFamily(new AiCallError('invalid_output'))).toBe('transient');
    expect(failureFamily(new AiCallError('auth'))).toBe('permanent');
    expect(failureFamily(new AiCallError('model_not_found'))).toBe('permanent');
    expect(failureFamily(new AiCallError('content_filter'))).toBe('permanent');
    expect(failureFamily(new AiCallError('blocked_address'))).toBe('permanent');
  });
});

describe('redactSecrets', () => {
  it('removes the given secrets, bearer tokens and sk- keys', () => {
    expect(redactSecrets('key abcd1234 and Bearer xyz.123 and sk-ABCDEFGH12345', ['abcd1234'])).toBe('key [redacted] and Bearer [redacted] and [redacted]');
  });
});
