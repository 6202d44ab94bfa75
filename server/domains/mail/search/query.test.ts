import { describe, expect, it } from 'vitest';
import { parseSearchQuery, type SearchTerm } from './query';

const word = (text: string, negated = false): SearchTerm => ({ kind: 'word', text, negated });
const phrase = (text: string, negated = false): SearchTerm => ({ kind: 'phrase', text, negated });
const from = (text: string, negated = false): SearchTerm => ({ kind: 'from', text, negated });

describe('parseSearchQuery', () => {
  it.each<[string, SearchTerm[]]>([
    ['', []],
    ['   ', []],
    ['invoice', [word('invoice')]],
    ['  invoice   march ', [word('invoice'), word('march')]],
    ['"quarterly report"', [phrase('quarterly report')]],
    ['"  spaced    out  "', [phrase('spaced out')]],
    ['"unclosed phrase', [phrase('unclosed phrase')]],
    ['""', []],
    ['from:alice', [from('alice')]],
    ['FROM:alice@example.test', [from('alice@example.test')]],
    ['from:"Alice Martin" invoice', [from('Alice Martin'), word('invoice')]],
    ['from: alice', [word('from:'), word('alice')]],
    ['-spam', [word('spam', true)]],
    ['-"daily digest"', [phrase('daily digest', true)]],
    ['-from:noreply', [from('noreply', true)]],
    ['- lone', [word('-'), word('lone')]],
    ['re-send', [word('re-send')]],
    ['a"b', [word('a"b')]],
    ['tab\tseparated\nlines', [word('tab'), word('separated'), word('lines')]],
  ])('%j', (q, expected) => {
    expect(parseSearchQuery(q)).toEqual(expected);
  });
});
