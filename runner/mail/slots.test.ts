import { describe, expect, it } from 'vitest';
import { Slots } from './worker';

describe('Slots', () => {
  it('lets at most `size` holders in, the others in order of arrival', async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    const first = await slots.acquire();
    const second = await slots.acquire();
    const third = slots.acquire().then((release) => {
      order.push('third');
      return release;
    });
    const fourth = slots.acquire().then((release) => {
      order.push('fourth');
      return release;
    });
    await Promise.resolve();
    expect(order).toEqual([]);
    first();
    first(); // a second release of the same slot changes nothing
    const releaseThird = await third;
    expect(order).toEqual(['third']);
    second();
    const releaseFourth = await fourth;
    expect(order).toEqual(['third', 'fourth']);
    releaseThird();
    releaseFourth();
    // All free again: two at once without waiting.
    const again = await Promise.all([slots.acquire(), slots.acquire()]);
    expect(again).toHaveLength(2);
  });
});
