import { describe, expect, it } from 'vitest';
import { clampSince } from './service';

const now = new Date('2026-06-15T12:00:00.000Z');
const day = 24 * 3_600_000;

describe('clampSince (spec, Limits: summary and retry-failed `since`, 30 days at most, default 24 hours)', () => {
  it.each([
    ['absent: 24 hours ago', undefined, new Date(now.getTime() - day)],
    ['within the window: as asked', '2026-06-10T00:00:00.000Z', new Date('2026-06-10T00:00:00.000Z')],
    ['older than 30 days: 30 days ago', '2020-01-01T00:00:00.000Z', new Date(now.getTime() - 30 * day)],
    ['in the future: now', '2027-01-01T00:00:00.000Z', now],
  ])('%s', (_label, since, expected) => {
    expect(clampSince(since, now)).toEqual(expected);
  });
});
