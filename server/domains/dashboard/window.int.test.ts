import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { dashboardQueryInput, isIanaTimeZone } from './query';
import { resolveWindow } from './window';

await useTestDatabase();

const query = (input: Record<string, unknown>) => dashboardQueryInput.parse(input);
const iso = (dates: Date[]) => dates.map((date) => date.toISOString());

describe('the dashboard window', () => {
  it('cuts a custom week over the spring change in Europe/Paris at local midnights (a 23-hour day)', async () => {
    // 29 March 2026: clocks go from 02:00 to 03:00 in Paris.
    const window = await resolveWindow(db(), query({ period: 'custom', from: '2026-03-27T23:00:00Z', to: '2026-03-31T22:00:00Z', tz: 'Europe/Paris' }));
    expect(window.bucket).toBe('day');
    expect(iso(window.bucketStarts)).toEqual(['2026-03-27T23:00:00.000Z', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', '2026-03-30T22:00:00.000Z']);
    expect(window.previousFrom.toISOString()).toBe('2026-03-24T00:00:00.000Z');
  });

  it('keeps a 25-hour autumn day whole and counts it once', async () => {
    const window = await resolveWindow(db(), query({ period: 'custom', from: '2026-10-24T22:00:00Z', to: '2026-10-26T23:00:00Z', tz: 'Europe/Paris' }));
    expect(iso(window.bucketStarts)).toEqual(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
  });

  it('uses hours up to 48 hours, starting with the local hour holding `from`', async () => {
    const now = new Date('2026-06-10T12:34:56Z');
    const window = await resolveWindow(db(), query({ period: '24h', tz: 'Asia/Kolkata' }), now);
    expect(window.bucket).toBe('hour');
    expect(window.from.toISOString()).toBe('2026-06-09T12:34:56.000Z');
    expect(window.to).toEqual(now);
    // Kolkata is UTC+05:30: its hours start at :30 UTC.
    expect(window.bucketStarts[0]!.toISOString()).toBe('2026-06-09T12:30:00.000Z');
    expect(window.bucketStarts).toHaveLength(25);
    expect(window.bucketStarts.at(-1)!.toISOString()).toBe('2026-06-10T12:30:00.000Z');
  });

  it('starts a 30-day window’s first bucket at the local midnight before `from`', async () => {
    const window = await resolveWindow(db(), query({ period: '30d', tz: 'America/New_York' }), new Date('2026-07-01T15:00:00Z'));
    expect(window.bucketStarts[0]!.toISOString()).toBe('2026-06-01T04:00:00.000Z');
    expect(window.bucketStarts).toHaveLength(31);
    expect(window.previousFrom.toISOString()).toBe('2026-05-02T15:00:00.000Z');
  });
});

describe('the dashboard query', () => {
  it.each([
    [{ period: 'week' }],
    [{ tz: 'Mars/Olympus' }],
    [{ tz: '+01:00' }],
    [{ period: 'custom', from: '2026-01-01T00:00:00Z' }],
    [{ period: 'custom', from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' }],
    [{ period: 'custom', from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }],
    [{ period: 'custom', from: '2026-01-01T00:00:00Z', to: '2026-04-03T00:00:01Z' }],
    [{ period: '7d', from: '2026-01-01T00:00:00Z' }],
  ])('refuses %j', (input) => {
    expect(dashboardQueryInput.safeParse(input).success).toBe(false);
  });

  it('reads IANA names and aliases, not offsets', () => {
    expect(isIanaTimeZone('Europe/Paris')).toBe(true);
    expect(isIanaTimeZone('UTC')).toBe(true);
    expect(isIanaTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isIanaTimeZone('+01:00')).toBe(false);
    expect(isIanaTimeZone('Europe/Nowhere')).toBe(false);
  });
});
