import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, pageOf } from './cursor';

describe('cursor pagination', () => {
  it('round-trips a position', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(decodeCursor(encodeCursor({ at, id: 'abc' }))).toEqual({ at, id: 'abc' });
  });

  it.each(['', 'not-base64!', Buffer.from('{"t":"nope","i":"x"}').toString('base64url'), Buffer.from('[1,2]').toString('base64url')])(
    'reads an unreadable cursor %j as no cursor',
    (cursor) => {
      expect(decodeCursor(cursor)).toBeNull();
    },
  );

  it('gives a next cursor only when a further row exists', () => {
    const rows = [1, 2, 3].map((n) => ({ id: `r${n}`, at: new Date(n * 1000) }));
    expect(pageOf(rows, 3, (r) => r.at).nextCursor).toBeNull();
    const page = pageOf(rows, 2, (r) => r.at);
    expect(page.items.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(decodeCursor(page.nextCursor)).toEqual({ at: new Date(2000), id: 'r2' });
  });
});
