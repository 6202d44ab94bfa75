import { describe, expect, it } from 'vitest';
import { ownValue, setOwn } from './own-property';

describe('ownValue and setOwn', () => {
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])('reads nothing inherited for %s', (key) => {
    expect(ownValue({}, key)).toBeUndefined();
    expect(ownValue(JSON.parse(`{"${key}": 1}`), key)).toBe(1);
  });

  it('defines __proto__ as an own property instead of changing the prototype', () => {
    const record: Record<string, unknown> = {};
    setOwn(record, '__proto__', 'x');
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.keys(record)).toEqual(['__proto__']);
    expect(JSON.stringify(record)).toBe('{"__proto__":"x"}');
  });
});
