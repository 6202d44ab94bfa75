import { describe, expect, it } from 'vitest';
import { splitAddresses } from './addresses';

describe('splitAddresses', () => {
  it.each([
    ['a@example.test, b@example.test', ['a@example.test', 'b@example.test'], []],
    ['Bob <bob@example.test>; BOB@example.test', ['bob@example.test'], []],
    ['nope,  , x@example.test', ['x@example.test'], ['nope']],
    ['', [], []],
  ])('%j', (text, addresses, invalid) => expect(splitAddresses(text)).toEqual({ addresses, invalid }));
});
