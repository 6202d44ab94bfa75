import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf } from './cursor';

describe('cursor pagination', () => {
  it('round-trips a position', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const id = '0b5f6a57-3c3e-4f0e-9d55-6c1d2b3a4f5e';
    expect(decodeCursor(encodeCursor({ at, id }))).toEqual({ at, id });
  });

  it.each(['', 'not-base64!', Buffer.from('{"t":"nope","i":"x"}').toString('base64url'), Buffer.from('[1,2]').toString('base64url')])(
    'reads an unreadable cursor %j as no cursor',
    (cursor) => {
      expect(decodeCursor(cursor)).toBeNull();
    },
  );

  it('gives a next cursor only when a further row exists', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `00000000-0000-4000-8000-00000000000${n}`, at: new Date(n * 1000) }));
    expect(pageOf(rows, 3, (r) => r.at).nextCursor).toBeNull();
    const page = pageOf(rows, 2, (r) => r.at);
    expect(page.items.map((r) => r.id)).toEqual([rows[0].id, rows[1].id]);
    expect(decodeCursor(page.nextCursor)).toEqual({ at: new Date(2000), id: rows[1].id });
  });
});

describe('hardening (fuzzed surface): a forged cursor reads as no cursor, never as a value the database refuses', () => {
  const forge = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const id = '0b5f6a57-3c3e-4f0e-9d55-6c1d2b3a4f5e';

  it.each([
    ['an id that is not a uuid', { t: '2026-01-02T03:04:05.678Z', i: '__proto__' }],
    ['an id of another type', { t: '2026-01-02T03:04:05.678Z', i: 12 }],
    ['a year PostgreSQL cannot store', { t: '-271821-04-20T00:00:00.000Z', i: id }],
    ['a time that is not ISO 8601', { t: 'Tue, 20 Apr 2026 00:00:00 GMT', i: id }],
    ['a time of another type', { t: 1_800_000_000_000, i: id }],
  ])('%s', (_label, forged) => {
    expect(decodeCursor(forge(forged))).toBeNull();
  });
});
