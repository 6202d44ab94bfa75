import { describe, expect, it } from 'vitest';
import { inNetworks, isLoopbackIp, normaliseIp, parseNetworks } from './ip-address';

describe('normaliseIp: one spelling per address, null for anything else', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['203.0.113.7:51234', '203.0.113.7'],
    ['2001:DB8::1', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::1', '::1'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseIp(input)).toBe(expected);
  });

  it.each([[''], ['unknown'], ['localhost'], ['203.0.113'], ['999.1.1.1'], ['1.2.3.4, 5.6.7.8'], ['_hidden'], ['1.2.3.4:99999'], ['x'.repeat(100)], [null], [undefined]])(
    '%s → null',
    (input) => {
      expect(normaliseIp(input)).toBeNull();
    },
  );
});

describe('isLoopbackIp', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['::2', false],
    [null, false],
  ])('%s → %s', (ip, expected) => {
    expect(isLoopbackIp(ip)).toBe(expected);
  });
});

describe('parseNetworks', () => {
  it('holds addresses and networks of both families', () => {
    const list = parseNetworks('10.0.0.0/8, 192.168.1.7 ,fd00::/8,');
    expect(inNetworks(list, '10.200.0.1')).toBe(true);
    expect(inNetworks(list, '192.168.1.7')).toBe(true);
    expect(inNetworks(list, '192.168.1.8')).toBe(false);
    expect(inNetworks(list, 'fd12::1')).toBe(true);
    expect(inNetworks(list, '2001:db8::1')).toBe(false);
  });

  it.each([['10.0.0.0/33'], ['fd00::/129'], ['10.0.0.0/8/1'], ['proxy.internal'], ['10.0.0.0/x']])('refuses %s and names it', (text) => {
    expect(() => parseNetworks(text)).toThrow(text);
  });
});
