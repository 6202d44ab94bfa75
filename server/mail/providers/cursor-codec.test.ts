import { describe, expect, it } from 'vitest';
import { decodeGmailCursor, encodeGmailCursor } from './gmail/cursor';
import { decodeFields, encodeFields } from './cursor-codec';

describe('cursor codec', () => {
  const spec = { a: 'text', d: 'digits', n: 'int', f: 'flag' } as const;

  it('round-trips fields and drops empty ones', () => {
    const token = encodeFields('x1:', { a: 'https://example.test/delta?$deltatoken=a&b=c', d: '12345678901234567890', n: -3, f: true, gone: undefined, no: false, nil: null });
    expect(decodeFields('x1:', token, spec)).toEqual({ a: 'https://example.test/delta?$deltatoken=a&b=c', d: '12345678901234567890', n: -3, f: true });
  });

  it.each([
    ['not ours', 'other:a=1'],
    ['null', null],
    ['bad digits', 'x1:d=12a'],
    ['unsafe int', 'x1:n=99999999999999999'],
    ['flag not 1', 'x1:f=true'],
    ['control character', 'x1:a=%00x'],
    ['too long', `x1:a=${'y'.repeat(5000)}`],
  ])('forgives a damaged token: %s', (_name, token) => {
    expect(decodeFields('x1:', token, spec)).toEqual({});
  });

  it('keeps the Gmail cursor fields', () => {
    const cursor = { historyId: '4242', passMode: 'resync' as const, passPageToken: 'tok/+=', passCount: 3, passDone: true, backfillBeforeMs: 1_700_000_000_000, backfillSinceMs: -1 };
    expect(decodeGmailCursor(encodeGmailCursor(cursor))).toEqual(expect.objectContaining(cursor));
    expect(decodeGmailCursor(encodeGmailCursor({ passMode: 'initial' })).historyId).toBeUndefined();
    expect(decodeGmailCursor('g1:pm=sideways').passMode).toBeUndefined();
  });
});
