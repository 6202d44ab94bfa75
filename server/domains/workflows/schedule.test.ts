import { describe, expect, it } from 'vitest';
import { nextRunAt } from './schedule';

const now = new Date('2026-03-27T10:30:00Z'); // a Friday, before the European change to summer time

describe('nextRunAt', () => {
  it.each([
    ['every five minutes', '*/5 * * * *', 'UTC', '2026-03-27T10:35:00.000Z'],
    ['09:00 on Mondays in Paris, after the clocks change (UTC+2)', '0 9 * * 1', 'Europe/Paris', '2026-03-30T07:00:00.000Z'],
    ['no time zone: UTC', '0 12 * * *', undefined, '2026-03-27T12:00:00.000Z'],
  ])('%s', (_label, cron, timeZone, expected) => {
    expect(nextRunAt(cron, timeZone, now)?.toISOString()).toBe(expected);
  });

  it.each([
    ['not an expression', 'every day', 'UTC'],
    ['an unknown time zone', '0 9 * * *', 'Mars/Olympus'],
    ['an expression still to be resolved', '{{ $trigger.cron }}', 'UTC'],
    ['not text', 42, 'UTC'],
  ])('is null for %s', (_label, cron, timeZone) => {
    expect(nextRunAt(cron, timeZone, now)).toBeNull();
  });
});
