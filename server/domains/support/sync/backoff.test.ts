import { describe, expect, it } from 'vitest';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, retryDelayMs } from './backoff';

describe('outbox retry backoff', () => {
  it('doubles from 5 seconds per failed attempt', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 1))).toEqual([5_000, 10_000, 20_000, 40_000]);
  });

  it('is capped at 15 minutes however many attempts failed', () => {
    expect(retryDelayMs(9, 1)).toBe(BACKOFF_CAP_MS);
    expect(retryDelayMs(1_000, 1)).toBe(BACKOFF_CAP_MS);
  });

  it('jitters within the upper half of the delay', () => {
    expect(retryDelayMs(1, 0)).toBe(BACKOFF_BASE_MS / 2);
    for (let index = 0; index < 50; index += 1) {
      const delay = retryDelayMs(5, Math.random());
      expect(delay).toBeGreaterThanOrEqual(40_000);
      expect(delay).toBeLessThanOrEqual(80_000);
    }
  });
});
