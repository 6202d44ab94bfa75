import { describe, expect, it } from 'vitest';
import { rateLimitSubject, retryAfterFor } from './rate-limit';

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

describe('hardening 6: per-IP limits count an IPv6 client per /64 (rateLimitSubject)', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['2001:db8:1:2::1.2.3.4', '2001:db8:1:2::/64'],
    [null, 'unknown'],
    ['not an address', 'unknown'],
  ])('%s counts as %s', (ip, subject) => {
    expect(rateLimitSubject(ip)).toBe(subject);
  });

  it('gives two addresses of one /64 the same subject and the next /64 another', () => {
    expect(rateLimitSubject('2001:db8:aa:bb::1')).toBe(rateLimitSubject('2001:db8:aa:bb:1234:5678:9abc:def0'));
    expect(rateLimitSubject('2001:db8:aa:bc::1')).not.toBe(rateLimitSubject('2001:db8:aa:bb::1'));
  });
});
