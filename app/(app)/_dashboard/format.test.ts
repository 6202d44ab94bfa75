import { describe, expect, it } from 'vitest';
import { formatBucket, formatChange, formatUsd, spansDays } from './format';

describe('bucket labels', () => {
  it('an hourly bucket reads as the local hour of the view’s zone', () => {
    expect(formatBucket('2026-12-02T13:00:00.000Z', 'hour', 'Europe/Paris', 'en')).toBe('14:00');
    expect(formatBucket('2026-12-02T13:00:00.000Z', 'hour', 'America/New_York', 'en')).toBe('08:00');
  });

  it('a daily bucket reads as the local day, in the reader’s language', () => {
    // Local midnight in Paris on 2 December is 23:00 UTC on the 1st.
    expect(formatBucket('2026-12-01T23:00:00.000Z', 'day', 'Europe/Paris', 'en')).toBe('2 Dec');
    expect(formatBucket('2026-12-01T23:00:00.000Z', 'day', 'Europe/Paris', 'fr')).toBe('2 déc.');
  });

  it('hourly labels carry the day when the window runs over two local days', () => {
    expect(spansDays(['2026-12-01T22:00:00.000Z', '2026-12-01T23:00:00.000Z'], 'UTC')).toBe(false);
    expect(spansDays(['2026-12-01T22:00:00.000Z', '2026-12-01T23:00:00.000Z'], 'Europe/Paris')).toBe(true);
  });
});

describe('figures', () => {
  it('spends are dollars, small ones keep their cents’ fractions', () => {
    expect(formatUsd(12.5, 'en')).toBe('US$12.50');
    expect(formatUsd(0.0042, 'en')).toBe('US$0.0042');
  });

  it('a change carries its sign and unit', () => {
    expect(formatChange(12.34, 'percent', 'en', 'pts')).toBe('+12\u00a0%');
    expect(formatChange(-2.5, 'points', 'en', 'pts')).toBe('-2.5\u00a0pts');
  });
});
