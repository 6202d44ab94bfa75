import { describe, expect, it } from 'vitest';
import { retryAfterFor } from './rate-limit';

describe('retryAfterFor: seconds until the sliding window has room again', () => {
  it('waits for the oldest bucket to leave when it alone frees enough room', () => {
    // 600 hits at second 100, limit 600, window 60, now 130: the bucket leaves the window at second 160.
    expect(retryAfterFor([{ second: 100, hits: 600 }], 600, 60, 130)).toBe(30);
  });

  it('walks forward through buckets until enough hits have left', () => {
    const buckets = [
      { second: 100, hits: 1 },
      { second: 110, hits: 1 },
      { second: 120, hits: 598 },
    ];
    // One hit must leave for a new one to fit: the bucket at second 100 leaves at 160.
    expect(retryAfterFor(buckets, 600, 60, 130)).toBe(30);
    // Two must leave when the limit is one lower: the bucket at second 110 leaves at 170.
    expect(retryAfterFor(buckets, 599, 60, 130)).toBe(40);
  });

  it('never answers less than one second', () => {
    expect(retryAfterFor([{ second: 70, hits: 600 }], 600, 60, 130)).toBe(1);
  });
});
