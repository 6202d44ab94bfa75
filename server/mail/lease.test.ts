import { describe, expect, it } from 'vitest';
import { leaseTiming, leaseTimingFor } from './lease';

describe('the mailbox lease timing (MAIL_LEASE_SECONDS)', () => {
  it('is, by default, a 25 s lease renewed every 10 s, scanned every 5 s, a runner live 20 s after its heartbeat', () => {
    expect(leaseTiming).toEqual({ ttlMs: 25_000, renewMs: 10_000, scanMs: 5_000, liveMs: 20_000 });
  });

  it('keeps the same proportions for a shorter lease: renewed 2.5 times within it, a take-over within ttl + a fifth', () => {
    expect(leaseTimingFor(10)).toEqual({ ttlMs: 10_000, renewMs: 4_000, scanMs: 2_000, liveMs: 8_000 });
  });
});
