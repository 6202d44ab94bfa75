import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { replayErrorText } from './replay-errors';

function refused(code: string, details: Record<string, unknown> = {}) {
  const error = new TRPCClientError('refused');
  Object.assign(error, { data: { appError: { code, message: 'server text', details } } });
  return error;
}

describe('replay refusals', () => {
  it('says why a replay is refused, per reason and language', () => {
    expect(replayErrorText(refused('execution.not_replayable', { reason: 'sender_excluded' }), en)).toBe('The email’s sender is now excluded from your scope.');
    expect(replayErrorText(refused('execution.not_replayable', { reason: 'in_progress' }), fr)).toBe('Cette exécution est encore en cours.');
  });

  it('falls back to the error code’s sentence for an unknown reason or another error', () => {
    expect(replayErrorText(refused('execution.not_replayable', { reason: 'constructor' }), en)).toBe('This run cannot be replayed.');
    expect(replayErrorText(refused('execution.not_found'), en)).toBe('This execution no longer exists.');
  });
});
