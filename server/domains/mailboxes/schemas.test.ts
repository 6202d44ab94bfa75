import { describe, expect, it } from 'vitest';
import { presentBackfill, presentLastError } from './present';
import { connectImapInput } from './schemas';
import { isResyncWindowValid } from './sync-requests';

describe('connectImapInput', () => {
  it('fills the spec’s defaults and lower-cases the address', () => {
    expect(connectImapInput.parse({ address: ' Box@Example.TEST ', imapHost: 'imap.example.test', smtpHost: 'smtp.example.test', password: 'pw' })).toEqual({
      address: 'box@example.test',
      imapHost: 'imap.example.test',
      imapPort: 993,
      imapSecure: true,
      smtpHost: 'smtp.example.test',
      smtpPort: 465,
      smtpSecure: true,
      password: 'pw',
      allowInvalidCertificate: false,
    });
  });

  it('keeps the password exactly as sent (no trimming)', () => {
    expect(connectImapInput.parse({ address: 'a@b.test', imapHost: 'h', smtpHost: 'h', password: ' pw ' }).password).toBe(' pw ');
  });
});

describe('isResyncWindowValid', () => {
  const now = new Date('2026-06-01T00:00:00Z');
  const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000);
  it.each([
    [daysBefore(1), true],
    [daysBefore(92), true],
    [new Date(daysBefore(92).getTime() - 1), false],
    [now, false],
    [new Date(now.getTime() + 1), false],
  ])('%s → %s', (since, valid) => {
    expect(isResyncWindowValid(since, now)).toBe(valid);
  });
});

describe('presentLastError', () => {
  it('keeps the fields that have their type and reads a value without kind as unknown', () => {
    expect(presentLastError(null)).toBeNull();
    expect(presentLastError({ kind: 'auth', code: 'imap.auth_failed', httpStatus: 'x', extra: 1 })).toEqual({ kind: 'auth', code: 'imap.auth_failed' });
    expect(presentLastError({ message: 'm' })).toEqual({ kind: 'unknown', message: 'm' });
    expect(presentLastError('text')).toEqual({ kind: 'unknown' });
  });
});

describe('presentBackfill', () => {
  it('is null until a backfill is asked for, and bounds the progress', () => {
    expect(presentBackfill({ backfillStatus: null, backfillProgressPct: null, backfillOldestAt: null })).toBeNull();
    expect(presentBackfill({ backfillStatus: 'running', backfillProgressPct: 140, backfillOldestAt: null })).toEqual({ status: 'running', progressPct: 100, oldestSyncedAt: null });
  });
});
