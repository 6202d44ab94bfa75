/**
 * The deadline of a wait counted in business time (flow.wait_for_reply), pure: weekends skipped,
 * hours outside the day's opening hours skipped, wall-clock hours kept across a change of summer time.
 */
import { describe, expect, it } from 'vitest';
import { businessHoursSchema, deadlineAfter, type BusinessHours } from './business-time';

const paris: BusinessHours = { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' };
const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('deadlineAfter in calendar time', () => {
  it.each([
    [30, 'minutes', '2026-11-06T15:30:00.000Z'],
    [2, 'hours', '2026-11-06T17:00:00.000Z'],
    [3, 'days', '2026-11-09T15:00:00.000Z'],
  ] as const)('%i %s after Friday 16:00 Paris is %s', (amount, unit, expected) => {
    expect(iso(deadlineAfter(new Date('2026-11-06T15:00:00Z'), amount, unit, null))).toBe(expected);
  });
});

describe('deadlineAfter in business hours of Europe/Paris (Monday to Friday, 9:00-18:00)', () => {
  it.each([
    // Friday 6 November 2026, 16:00 in Paris (UTC+1).
    ['3 business days from Friday 16:00 end on Wednesday 16:00 (the weekend skipped)', '2026-11-06T15:00:00Z', 3, 'days', '2026-11-11T15:00:00.000Z'],
    ['4 business hours from Friday 16:00 end on Monday 11:00', '2026-11-06T15:00:00Z', 4, 'hours', '2026-11-09T10:00:00.000Z'],
    ['2 hours from Friday 16:00 end at closing time, the same day', '2026-11-06T15:00:00Z', 2, 'hours', '2026-11-06T17:00:00.000Z'],
    ['an hour from Saturday 10:00 ends on Monday 10:00', '2026-11-07T09:00:00Z', 1, 'hours', '2026-11-09T09:00:00.000Z'],
    ['3 business days from Saturday end on Wednesday at closing time', '2026-11-07T09:00:00Z', 3, 'days', '2026-11-11T17:00:00.000Z'],
    ['an hour from Monday 7:00 (before opening) ends at 10:00', '2026-11-09T06:00:00Z', 1, 'hours', '2026-11-09T09:00:00.000Z'],
    ['90 minutes from Tuesday 17:30 end on Wednesday 10:00', '2026-11-10T16:30:00Z', 90, 'minutes', '2026-11-11T09:00:00.000Z'],
    ['an hour from Friday 20:00 (after closing) ends on Monday 10:00', '2026-11-06T19:00:00Z', 1, 'hours', '2026-11-09T09:00:00.000Z'],
  ] as const)('%s', (_name, from, amount, unit, expected) => {
    expect(iso(deadlineAfter(new Date(from), amount, unit, paris))).toBe(expected);
  });

  it('keeps wall-clock hours across the end of summer time (Sunday 25 October 2026)', () => {
    // Friday 23 October 16:00 in Paris is 14:00 UTC (summer time); Wednesday 28 October 16:00 is 15:00 UTC (winter time).
    expect(iso(deadlineAfter(new Date('2026-10-23T14:00:00Z'), 3, 'days', paris))).toBe('2026-10-28T15:00:00.000Z');
  });

  it('counts the days and hours given, in their zone', () => {
    const weekendShop: BusinessHours = { timeZone: 'America/New_York', days: ['sat', 'sun'], start: '10:00', end: '14:00' };
    // Friday 6 November 2026 12:00 in New York (UTC-5): the next business hours are Saturday 10:00-14:00.
    expect(iso(deadlineAfter(new Date('2026-11-06T17:00:00Z'), 6, 'hours', weekendShop))).toBe('2026-11-08T17:00:00.000Z');
  });
});

describe('the business hours parameter', () => {
  it('defaults to Monday to Friday, 9:00 to 18:00', () => {
    expect(businessHoursSchema.parse({ timeZone: 'Europe/Paris' })).toEqual(paris);
  });

  it.each([
    [{ timeZone: 'Mars/Olympus' }],
    [{ timeZone: 'Europe/Paris', start: '18:00', end: '09:00' }],
    [{ timeZone: 'Europe/Paris', start: '9:00' }],
    [{ timeZone: 'Europe/Paris', days: [] }],
    [{ timeZone: 'Europe/Paris', days: ['mon', 'mon'] }],
    [{ timeZone: 'Europe/Paris', days: ['monday'] }],
  ])('refuses %j', (value) => {
    expect(businessHoursSchema.safeParse(value).success).toBe(false);
  });
});
