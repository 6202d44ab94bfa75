import { describe, expect, it } from 'vitest';
import { parseAddresses, snoozeUntil } from './api';
import { reviewCommandOf } from './shortcuts';

describe('review shortcuts', () => {
  it('maps j/k/s/r/b/x/? and ignores modified keys', () => {
    const key = (k: string, extra: Partial<KeyboardEvent> = {}) => reviewCommandOf({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...extra });
    expect(['j', 'k', 's', 'r', 'b', 'x', '?'].map((k) => key(k))).toEqual(['next', 'previous', 'send', 'reject', 'snooze', 'toggle', 'help']);
    // `e` archives everywhere else in the application: Review does not give it another meaning.
    expect(key('e')).toBeNull();
    expect(key('s', { ctrlKey: true })).toBeNull();
    expect(key('s', { metaKey: true })).toBeNull();
    expect(key('q')).toBeNull();
  });
});

describe('parseAddresses', () => {
  it('splits on commas, semicolons and lines, and tells the invalid ones', () => {
    expect(parseAddresses(' a@example.test, b@example.test;\nnot an address ,, ')).toEqual({ addresses: ['a@example.test', 'b@example.test'], invalid: ['not an address'] });
    expect(parseAddresses('')).toEqual({ addresses: [], invalid: [] });
  });
});

describe('snoozeUntil', () => {
  it('gives moments in the future within 30 days', () => {
    const now = new Date('2026-03-10T15:30:00');
    for (const choice of ['hours3', 'tomorrow', 'week'] as const) {
      const until = new Date(snoozeUntil(choice, now)).getTime();
      expect(until).toBeGreaterThan(now.getTime());
      expect(until).toBeLessThanOrEqual(now.getTime() + 30 * 86_400_000);
    }
    expect(new Date(snoozeUntil('tomorrow', now)).getHours()).toBe(8);
  });
});
