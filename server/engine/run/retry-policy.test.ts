import { describe, expect, it } from 'vitest';
import { retryDelayMs, retrySettingsOf, shouldRetry } from './retry-policy';

describe('Retry settings come from the first level that sets them: the node, then the node type, then built-in defaults', () => {
  it.each([
    ['node wins', { retry: { maxAttempts: 7, delayMs: 2_000 }, timeoutMs: 9_000 }, { maxAttempts: 3, delayMs: 10_000, timeoutMs: 300_000 }, { maxAttempts: 7, delayMs: 2_000, timeoutMs: 9_000 }],
    ['node type next (AI: 3 attempts, 10 s, 5 min)', {}, { maxAttempts: 3, delayMs: 10_000, timeoutMs: 300_000 }, { maxAttempts: 3, delayMs: 10_000, timeoutMs: 300_000 }],
    ['built-in last: 3 attempts, 5 s delay, 2 min per attempt', {}, undefined, { maxAttempts: 3, delayMs: 5_000, timeoutMs: 120_000 }],
    ['levels mix per field', { timeoutMs: 6_000 }, { delayMs: 10_000 }, { maxAttempts: 3, delayMs: 10_000, timeoutMs: 6_000 }],
  ])('%s', (_name, node, nodeType, expected) => {
    expect(retrySettingsOf(node, nodeType)).toEqual(expected);
  });
});

describe('Delays double up to 15 minutes, with randomness; in a test run every delay is cut to 2 seconds', () => {
  it.each([
    [1, 5_000],
    [2, 10_000],
    [3, 20_000],
    [9, 900_000],
    [40, 900_000],
  ])('after attempt %i the middle delay is %i ms', (attempt, expected) => {
    expect(retryDelayMs({ delayMs: 5_000 }, attempt, { simulated: false, random: 0.5 })).toBe(expected);
  });

  it('spreads by ±20 % but never beyond 15 minutes', () => {
    expect(retryDelayMs({ delayMs: 10_000 }, 1, { simulated: false, random: 0 })).toBe(8_000);
    expect(retryDelayMs({ delayMs: 10_000 }, 1, { simulated: false, random: 0.999 })).toBeCloseTo(11_996, -1);
    expect(retryDelayMs({ delayMs: 3_600_000 }, 1, { simulated: false, random: 0.999 })).toBe(900_000);
  });

  it('cuts every delay of a test run to 2 s', () => {
    expect(retryDelayMs({ delayMs: 3_600_000 }, 4, { simulated: true })).toBe(2_000);
  });
});

describe('Only temporary failures are retried; the attempts count includes the first attempt', () => {
  it.each([
    ['transient', 1, 3, true],
    ['transient', 2, 3, true],
    ['transient', 3, 3, false],
    ['permanent', 1, 3, false],
    ['transient', 1, 1, false],
  ] as const)('%s failure of attempt %i with %i attempts → retry %s', (kind, attempt, maxAttempts, expected) => {
    expect(shouldRetry(kind, attempt, { maxAttempts })).toBe(expected);
  });
});
