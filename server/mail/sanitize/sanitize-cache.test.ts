import { describe, expect, it } from 'vitest';
import { ByteBudgetLru } from './sanitize-cache';

const weigh = (value: string) => value.length * 2;

describe('ByteBudgetLru', () => {
  it('evicts the least recently used entries once over budget', () => {
    const cache = new ByteBudgetLru<string>(8_000, weigh);
    cache.set('a', 'x'.repeat(400)); // 800 + 2 + 128 bytes
    cache.set('b', 'x'.repeat(400));
    cache.get('a');
    for (let i = 0; i < 7; i += 1) cache.set(`k${i}`, 'x'.repeat(400));
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(8_000);
  });

  it('does not keep an entry heavier than an eighth of the budget', () => {
    const cache = new ByteBudgetLru<string>(8_000, weigh);
    cache.set('small', 'x');
    cache.set('big', 'x'.repeat(1_000));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('small')).toBe('x');
  });

  it('replaces an entry under the same key and accounts for it once', () => {
    const cache = new ByteBudgetLru<string>(8_000, weigh);
    cache.set('a', 'x'.repeat(10));
    cache.set('a', 'y'.repeat(20));
    expect(cache.get('a')).toBe('y'.repeat(20));
    expect(cache.stats()).toEqual({ entries: 1, bytes: 40 + 2 + 128 });
    cache.delete('a');
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });
});
