import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('live refreshes are throttled', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('the first event refreshes at once, a burst after it once more at the end of the pause', () => {
    const refresh = vi.fn();
    const call = throttle(refresh, 5_000);
    call();
    expect(refresh).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 10; i++) call();
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(4_999);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('an event after a quiet pause refreshes at once', () => {
    const refresh = vi.fn();
    const call = throttle(refresh, 5_000);
    call();
    vi.advanceTimersByTime(6_000);
    call();
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('cancel drops a pending refresh (the page left)', () => {
    const refresh = vi.fn();
    const call = throttle(refresh, 5_000);
    call();
    call();
    call.cancel();
    vi.advanceTimersByTime(10_000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});
