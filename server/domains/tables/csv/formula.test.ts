import { describe, expect, it } from 'vitest';
import { neutraliseFormula } from './formula';

describe('hardening 4: neutraliseFormula prefixes what a spreadsheet would run', () => {
  it.each([
    ['=HYPERLINK("http://x.example","x")', '\'=HYPERLINK("http://x.example","x")'],
    ['+1+cmd|" /C calc"!A0', '\'+1+cmd|" /C calc"!A0'],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['\r=1', "'\r=1"],
  ])('%j becomes %j', (text, expected) => {
    expect(neutraliseFormula(text)).toBe(expected);
  });

  it.each(['', 'plain', 'a=b', ' =1', "'=already", '1-2', 'ada@example.com', '2024-01-31'])('%j stays as it is', (text) => {
    expect(neutraliseFormula(text)).toBe(text);
  });
});
