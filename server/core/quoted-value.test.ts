import { describe, expect, it } from 'vitest';
import { quotedValue } from './quoted-value';

describe('values quoted in messages', () => {
  it('are one line, at most 40 code points, never cut inside a surrogate pair', () => {
    expect(quotedValue('a\nb\tc')).toBe('a b c');
    const emoji = quotedValue('😀'.repeat(60));
    expect(Array.from(emoji)).toHaveLength(40);
    expect(emoji.endsWith('😀…')).toBe(true);
    expect(quotedValue(12.5)).toBe('12.5');
  });
});
