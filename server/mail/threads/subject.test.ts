import { describe, expect, it } from 'vitest';
import { baseSubject, hasReplyPrefix, subjectKey } from './subject';

describe('subjectKey', () => {
  it.each([
    ['Quarterly numbers', 'quarterly numbers'],
    ['Re: Quarterly numbers', 'quarterly numbers'],
    ['RE:  Quarterly   numbers ', 'quarterly numbers'],
    ['Fwd: Re: Quarterly numbers', 'quarterly numbers'],
    ['Re[2]: Quarterly numbers', 'quarterly numbers'],
    ['Re(3): Quarterly numbers', 'quarterly numbers'],
    ['AW: WG: Quarterly numbers', 'quarterly numbers'],
    ['TR : Quarterly numbers', 'quarterly numbers'],
    ['SV: Quarterly numbers', 'quarterly numbers'],
    ['[dev-list] Re: Quarterly numbers', 'quarterly numbers'],
    ['Re: [dev-list] Quarterly numbers', 'quarterly numbers'],
    ['回复：季度数字', '季度数字'],
    ['Réf: Quarterly numbers', 'quarterly numbers'],
    ['Rebuild plan', 'rebuild plan'],
    ['Fwdx: test plan', 'fwdx: test plan'],
    ['', null],
    [null, null],
    ['Re:', null],
    ['Re: hello', null],
    ['(no subject)', null],
    ['Test', null],
    ['Merci', null],
    ['ok', null],
  ] as const)('%j → %j', (subject, expected) => {
    expect(subjectKey(subject)).toBe(expected);
  });

  it('keeps case in the base subject and bounds its length', () => {
    expect(baseSubject('Re: Hello World')).toBe('Hello World');
    expect(baseSubject(`Re: ${'x'.repeat(5000)}`)).toHaveLength(300);
  });

  it('looks at a bounded head of hostile input (a bounded number of prefix rounds)', () => {
    expect(subjectKey('Re: '.repeat(100_000))!.length).toBeLessThanOrEqual(300);
    expect(subjectKey('['.repeat(100_000))).toHaveLength(300);
  });
});

describe('hasReplyPrefix', () => {
  it.each([
    ['Re: x', true],
    ['RE : x', true],
    ['Fwd: x', true],
    ['FW: x', true],
    ['AW: x', true],
    ['[list] Re: x', true],
    ['Regarding x', false],
    ['x', false],
    ['', false],
    [null, false],
  ] as const)('%j → %s', (subject, expected) => {
    expect(hasReplyPrefix(subject)).toBe(expected);
  });
});
