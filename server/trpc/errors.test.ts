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

  it('a 4xx is the caller’s and logs nothing', () => {
    const error = vi.spyOn(log, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    logIfUnexpected(new AppError('request.not_found'));
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
