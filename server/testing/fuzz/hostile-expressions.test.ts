import { describe, expect, it } from 'vitest';
import { compileError } from '../../engine/expressions';
import { createRng } from './prng';
import { hostileExpressions, hostileFamilies } from './hostile-expressions';

describe('hostile expressions (the expression fuzz family)', () => {
  it('every family appears, every expression parses and fits the length limit, so each case tests a bound rather than the parser', () => {
    for (const seed of [1, 0x6d61696c, 424242]) {
      const cases = hostileExpressions(createRng(seed), hostileFamilies.length * 6);
      expect(new Set(cases.map((entry) => entry.family))).toEqual(new Set(hostileFamilies));
      for (const { source } of cases) expect([source.slice(0, 120), compileError(source)]).toEqual([source.slice(0, 120), null]);
    }
  });

  it('a seed regenerates the same expressions', () => {
    expect(hostileExpressions(createRng(99), 14)).toEqual(hostileExpressions(createRng(99), 14));
  });
});
