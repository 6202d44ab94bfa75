import { describe, expect, it } from 'vitest';
import { hasWindow, noWindow, queryOfWindow, windowFromSearch, windowLabel } from './time-window';

const words = { since: (bound: string) => `From ${bound}`, until: (bound: string) => `Until ${bound}` };

describe('a list’s time window from the URL', () => {
  it('reads both bounds as UTC instants, whatever offset the link wrote', () => {
    expect(windowFromSearch({ from: '2026-03-28T00:00:00+01:00', to: '2026-03-29T00:00:00+01:00' })).toEqual({
      from: '2026-03-27T23:00:00.000Z',
      to: '2026-03-28T23:00:00.000Z',
    });
  });

  it('keeps a window open on one side', () => {
    const window = windowFromSearch({ from: '2026-03-28T00:00:00Z' });
    expect(window).toEqual({ from: '2026-03-28T00:00:00.000Z', to: '' });
    expect(queryOfWindow(window)).toEqual({ from: '2026-03-28T00:00:00.000Z' });
    expect(hasWindow(window)).toBe(true);
  });

  it('drops a bound without a zone, a date alone, an impossible date, an over-long value or an array’s extra values', () => {
    expect(windowFromSearch({ from: '2026-03-28T00:00:00' })).toEqual(noWindow);
    expect(windowFromSearch({ from: '2026-03-28' })).toEqual(noWindow);
    expect(windowFromSearch({ from: '2026-02-31T25:00:00Z' })).toEqual(noWindow);
    expect(windowFromSearch({ from: `2026-03-28T00:00:00.${'1'.repeat(60)}Z` })).toEqual(noWindow);
    expect(windowFromSearch({ from: ['2026-03-28T00:00:00Z', 'junk'] })).toEqual({ from: '2026-03-28T00:00:00.000Z', to: '' });
  });

  it('drops a window whose start is not before its end rather than showing an empty list that looks real', () => {
    expect(windowFromSearch({ from: '2026-03-29T00:00:00Z', to: '2026-03-28T00:00:00Z' })).toEqual(noWindow);
    expect(windowFromSearch({ from: '2026-03-28T00:00:00Z', to: '2026-03-28T00:00:00Z' })).toEqual(noWindow);
    expect(hasWindow(noWindow)).toBe(false);
    expect(queryOfWindow(noWindow)).toEqual({});
  });
});

describe('the window chip’s label', () => {
  const day = { from: '2026-03-27T23:00:00.000Z', to: '2026-03-28T23:00:00.000Z' };

  it('shows the bounds in the reader’s zone and language: “Mar 28, 00:00 → Mar 29, 00:00”', () => {
    expect(windowLabel(day, 'en', words, 'Europe/Paris')).toBe('Mar 28, 00:00 → Mar 29, 00:00');
    expect(windowLabel(day, 'fr', words, 'Europe/Paris')).toBe('28 mars, 00:00 → 29 mars, 00:00');
    expect(windowLabel(day, 'en', words, 'America/New_York')).toBe('Mar 27, 19:00 → Mar 28, 19:00');
  });

  it('keeps the local hours across a daylight-saving change (Paris, 29 March 2026)', () => {
    expect(windowLabel({ from: '2026-03-28T23:00:00.000Z', to: '2026-03-29T22:00:00.000Z' }, 'en', words, 'Europe/Paris')).toBe('Mar 29, 00:00 → Mar 30, 00:00');
  });

  it('says “from …” or “until …” for a window open on one side, nothing without a window', () => {
    expect(windowLabel({ from: day.from, to: '' }, 'en', words, 'Europe/Paris')).toBe('From Mar 28, 00:00');
    expect(windowLabel({ from: '', to: day.to }, 'en', words, 'Europe/Paris')).toBe('Until Mar 29, 00:00');
    expect(windowLabel(noWindow, 'en', words, 'Europe/Paris')).toBe('');
  });
});
