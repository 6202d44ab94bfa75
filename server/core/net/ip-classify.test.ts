import { describe, expect, it } from 'vitest';
import { classifyIp, isKindAllowed, parseIpLiteral, type AddressKind } from './ip-classify';

describe('classifyIp', () => {
  const cases: [string, AddressKind][] = [
    // public
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['93.184.216.34', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['169.253.255.255', 'public'],
    ['223.255.255.255', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['2a00:1450:4007:80f::200e', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'], // NAT64 of 8.8.8.8
    ['2002:808:808::1', 'public'], // 6to4 of 8.8.8.8
    // loopback
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'], // IPv4-translated
    ['64:ff9b::7f00:1', 'loopback'], // NAT64 of 127.0.0.1
    ['2002:7f00:1::', 'loopback'], // 6to4 of 127.0.0.1
    // RFC 1918, CGNAT
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:c0a8:101', 'private'], // ::ffff:192.168.1.1 in hex
    ['64:ff9b::a00:1', 'private'], // NAT64 of 10.0.0.1
    ['2002:c0a8:0101::1', 'private'], // 6to4 of 192.168.1.1
    ['64:ff9b:1::1', 'private'], // local-use NAT64
    ['100.64.0.1', 'shared'],
    ['100.127.255.255', 'shared'],
    // link-local, unique-local, site-local
    ['169.254.1.1', 'link_local'],
    ['fe80::1', 'link_local'],
    ['febf:ffff::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456:789a::1', 'unique_local'],
    ['fec0::1', 'site_local'],
    // metadata
    ['169.254.169.254', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['2002:a9fe:a9fe::', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['192.0.0.192', 'metadata'],
    // unspecified, multicast, broadcast
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['ff05::1:3', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    // documentation, reserved
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['2001:db8::1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    ['100::1', 'reserved'],
    ['2001::1', 'reserved'], // Teredo hides the IPv4 address
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['::7f00:1', 'reserved'], // IPv4-compatible (deprecated)
    ['::127.0.0.1', 'reserved'],
    ['4000::1', 'reserved'], // outside 2000::/3
    ['not-an-ip', 'reserved'],
  ];

  it('has a large table', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s → %s', (ip, kind) => {
    expect(classifyIp(ip)).toBe(kind);
  });
});

describe('parseIpLiteral: every spelling the resolver accepts', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1', 4],
    ['2130706433', '127.0.0.1', 4], // decimal
    ['0177.0.0.1', '127.0.0.1', 4], // octal
    ['0x7f.1', '127.0.0.1', 4], // hex, short
    ['0X7F.0.0.1', '127.0.0.1', 4],
    ['127.1', '127.0.0.1', 4], // short
    ['127.0.1', '127.0.0.1', 4],
    ['0x7f000001', '127.0.0.1', 4],
    ['017700000001', '127.0.0.1', 4],
    ['0', '0.0.0.0', 4],
    ['10.0.0.1.', '10.0.0.1', 4], // trailing dot
    ['169.254.43518', '169.254.169.254', 4],
    ['0xa9.0xfe.0xa9.0xfe', '169.254.169.254', 4],
    ['[::1]', '0:0:0:0:0:0:0:1', 6],
    ['::FFFF:127.0.0.1', '0:0:0:0:0:ffff:7f00:1', 6],
    ['fe80::1%eth0', 'fe80:0:0:0:0:0:0:1', 6],
    ['[fd00:ec2::254]', 'fd00:ec2:0:0:0:0:0:254', 6],
  ])('%s → %s', (host, address, family) => {
    expect(parseIpLiteral(host)).toEqual({ address, family });
  });

  it.each([
    ['mail.example.com'],
    ['localhost'],
    ['256.0.0.1'],
    ['1.2.3.4.5'],
    ['1..2.3'],
    ['0x'],
    ['08.0.0.1'], // not octal, not decimal
    ['4294967296'], // 2^32
    ['1.16777216'],
    ['1.2.65536'],
    ['127.0.0.1a'],
    [''],
    ['[mail.example.com]'],
    [':::'],
    ['1:2:3:4:5:6:7:8:9'],
  ])('%s is not a literal', (host) => {
    expect(parseIpLiteral(host)).toBeNull();
  });

  it('agrees with classifyIp on odd spellings of loopback and metadata', () => {
    for (const host of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1']) {
      expect(classifyIp(parseIpLiteral(host)!.address)).toBe('loopback');
    }
    expect(classifyIp(parseIpLiteral('0xa9fea9fe')!.address)).toBe('metadata');
  });
});

describe('isKindAllowed', () => {
  it.each([
    ['public', false, true],
    ['public', true, true],
    ['loopback', false, false],
    ['loopback', true, true],
    ['private', true, true],
    ['shared', true, true],
    ['link_local', true, true],
    ['unique_local', true, true],
    ['metadata', true, false],
    ['unspecified', true, false],
    ['multicast', true, false],
    ['broadcast', true, false],
    ['documentation', true, false],
    ['reserved', true, false],
  ] as [AddressKind, boolean, boolean][])('%s with allowPrivate %s → %s', (kind, allowPrivate, expected) => {
    expect(isKindAllowed(kind, allowPrivate)).toBe(expected);
  });
});
