import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors/app-error';
import { log } from '../core/log';
import { logIfUnexpected } from './errors';

afterEach(() => vi.restoreAllMocks());

describe('logIfUnexpected', () => {
  it('a bug answered as 500 is logged as an error with its cause', () => {
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    logIfUnexpected(new Error('boom'), 'x.y');
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ path: 'x.y' }), 'unexpected error answered as 500');
  });

  it('a catalogue 502 (a list that refused the unsubscribe) is an expected upstream failure: a warning, never "unexpected 500"', () => {
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    logIfUnexpected(new AppError('webmail.unsubscribe_failed', { details: { host: 'list.example', reason: 'refused' } }), 'messages.unsubscribe');
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith({ code: 'webmail.unsubscribe_failed', status: 502, path: 'messages.unsubscribe' }, 'request failed upstream');
  });

  it('refusals for load (503 internal.busy, auth.busy) log one line per code and reason every 10 s at most, with how many were refused since', () => {
    // Later than any line another test of this process logged (the module's state outlives a test).
    vi.useFakeTimers({ now: Date.now() + 86_400_000 });
    try {
      const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
      const refuse = (reason: string) => logIfUnexpected(new AppError('internal.busy', { details: { reason, retryAfterSeconds: 1 } }), 'POST /hooks/wf/{token}');
      for (let index = 0; index < 50; index += 1) refuse('intake');
      refuse('backlog');
      // The password gate's refusal is one too, counted apart.
      logIfUnexpected(new AppError('auth.busy', { details: { retryAfterSeconds: 2 } }), 'auth.login');
      logIfUnexpected(new AppError('auth.busy', { details: { retryAfterSeconds: 2 } }), 'auth.login');
      expect(warn).toHaveBeenCalledTimes(3);
      expect(warn).toHaveBeenNthCalledWith(3, expect.objectContaining({ code: 'auth.busy', status: 503, refusedSinceLastLine: 0 }), 'request refused for load');
      expect(warn).toHaveBeenNthCalledWith(1, expect.objectContaining({ code: 'internal.busy', status: 503, reason: 'intake', refusedSinceLastLine: 0 }), 'request refused for load');
      expect(warn).toHaveBeenNthCalledWith(2, expect.objectContaining({ reason: 'backlog' }), 'request refused for load');
      vi.advanceTimersByTime(10_000);
      refuse('intake');
      expect(warn).toHaveBeenCalledTimes(4);
      expect(warn).toHaveBeenLastCalledWith(expect.objectContaining({ reason: 'intake', refusedSinceLastLine: 49 }), 'request refused for load');
    } finally {
      vi.useRealTimers();
    }
  });

  it('a 4xx is the caller’s and logs nothing', () => {
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    logIfUnexpected(new AppError('request.not_found'));
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
