import { describe, expect, it } from 'vitest';
import { readNumberText } from './number-text';

describe('numbers and money as people write them', () => {
  it.each([
    ['87.40', 87.4, null],
    ['87,40', 87.4, null],
    ['EUR 87.40', 87.4, 'EUR'],
    ['eur 87.40', 87.4, 'EUR'],
    ['87,40 €', 87.4, '€'],
    ['87,40\u00a0€', 87.4, '€'],
    ['€87.40', 87.4, '€'],
    ['$1,234.56', 1234.56, '$'],
    ['1 234,56', 1234.56, null],
    ['1\u202f234,56 EUR', 1234.56, 'EUR'],
    ['1,234.56', 1234.56, null],
    ['1.234,56', 1234.56, null],
    ["1'234.50 CHF", 1234.5, 'CHF'],
    ['1.234.567', 1234567, null],
    ['1,234,567', 1234567, null],
    ['1 234', 1234, null],
    ['1 234,567', 1234.567, null],
    ['1234.567', 1234.567, null],
    ['0,125', 0.125, null],
    ['0.5', 0.5, null],
    ['.5', 0.5, null],
    ['42', 42, null],
    ['-87.40', -87.4, null],
    ['-€87.40', -87.4, '€'],
    ['€ -87,40', -87.4, '€'],
    ['\u2212 12,5', -12.5, null],
    ['+3', 3, null],
    ['1e3', 1000, null],
    ['2.5E-2', 0.025, null],
    ['US$ 10', 10, 'US$'],
    ['12,50 zł', 12.5, 'zł'],
    ['Fr. 12.50', 12.5, 'Fr.'],
  ] as const)('%j reads as %d (currency %j)', (text, value, currency) => {
    expect(readNumberText(text)).toEqual({ ok: true, value, currency });
  });

  it.each([
    ['1,234', [1234, 1.234]],
    ['1.234', [1234, 1.234]],
    ['12.500', [12500, 12.5]],
    ['EUR 999,999', [999999, 999.999]],
    ['-1,234', [-1234, -1.234]],
  ] as const)('a lone separator that could group thousands (%j) is refused as ambiguous, naming both readings', (text, readings) => {
    expect(readNumberText(text)).toEqual({ ok: false, reason: 'ambiguous_number', readings });
  });

  it.each([
    'abc',
    'forty-two',
    '',
    '   ',
    '12 apples',
    'EUR 87.40 USD',
    'XYZ 12',
    '1,2,3',
    '12,34,567',
    '1.234.56',
    '1,234.567.8',
    '87 40',
    '1.2.3,4',
    '--5',
    '-€-5',
    '1e',
    '0x10',
    'Infinity',
    '12%',
    '1'.repeat(65),
    '9'.repeat(400),
  ])('%j is not a number', (text) => {
    expect(readNumberText(text)).toEqual({ ok: false, reason: 'not_a_number' });
  });
});
