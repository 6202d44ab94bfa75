import type { LookupAddress } from 'node:dns';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { guardedLookup, NetworkGuardError, resolveAllowedAddress } from './network-guard';

/** A DNS stand-in: names map to answers; anything else is ENOTFOUND. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = (host: string): Promise<LookupAddress[]> => {
    asked.push(host);
    const answers = table[host];
    if (!answers) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(answers.map((address) => ({ address, family: net.isIP(address) })));
  };
  return { lookup, asked };
}

const dns = fakeDns({
  'mail.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'v6only.example.com': ['2a00:1450:4007:80f::200e'],
  'metadata.example.com': ['169.254.169.254'],
  'empty.example.com': [],
  'xn--bcher-kva.example': ['93.184.216.34'],
  localhost: ['127.0.0.1', '::1'],
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    expect(error).toBeInstanceOf(NetworkGuardError);
    return (error as NetworkGuardError).reason;
  }
}

describe('resolveAllowedAddress', () => {
  it('answers the first address of a public name, with all of them', async () => {
    const resolved = await resolveAllowedAddress('mail.example.com', { allowPrivate: false, lookup: dns.lookup });
    expect(resolved).toEqual({
      address: '93.184.216.34',
      family: 4,
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
      literal: false,
    });
  });

  it.each([
    ['internal.example.com', false, 'blocked_address'],
    ['internal.example.com', true, 'resolved'],
    ['mixed.example.com', false, 'blocked_address'], // one bad answer is enough
    ['mixed.example.com', true, 'resolved'],
    ['mapped.example.com', true, 'blocked_address'], // metadata stays refused
    ['metadata.example.com', true, 'blocked_address'],
    ['localhost', false, 'blocked_address'],
    ['localhost', true, 'resolved'],
    ['LOCALHOST.', true, 'resolved'],
    ['v6only.example.com', false, 'resolved'],
    ['nonexistent.invalid', false, 'host_not_found'],
    ['empty.example.com', false, 'host_not_found'],
    ['bücher.example', false, 'resolved'], // IDN as punycode
    ['', false, 'host_not_found'],
    ['   ', false, 'host_not_found'],
    ['bad host', false, 'host_not_found'],
    ['a'.repeat(300), false, 'host_not_found'],
    ['mail.example.com/path', false, 'host_not_found'],
    ['127.0.0.1', false, 'blocked_address'],
    ['127.0.0.1', true, 'resolved'],
    ['2130706433', false, 'blocked_address'],
    ['0177.0.0.1', false, 'blocked_address'],
    ['0x7f.1', false, 'blocked_address'],
    ['127.1', false, 'blocked_address'],
    ['[::1]', false, 'blocked_address'],
    ['::ffff:127.0.0.1', false, 'blocked_address'],
    ['0.0.0.0', true, 'blocked_address'],
    ['169.254.169.254', true, 'blocked_address'],
    ['0xa9fea9fe', true, 'blocked_address'],
    ['[fd00:ec2::254]', true, 'blocked_address'],
    ['100.100.100.200', true, 'blocked_address'],
    ['100.64.1.1', false, 'blocked_address'],
    ['192.168.0.10', true, 'resolved'],
    ['8.8.8.8', false, 'resolved'],
    ['224.0.0.1', true, 'blocked_address'],
  ])('%s (allowPrivate %s) → %s', async (host, allowPrivate, expected) => {
    expect(await reasonOf(resolveAllowedAddress(host, { allowPrivate, lookup: dns.lookup }))).toBe(expected);
  });

  it('does not ask DNS for an IP literal', async () => {
    const local = fakeDns({});
    const resolved = await resolveAllowedAddress('0x08080808', { allowPrivate: false, lookup: local.lookup });
    expect(resolved).toMatchObject({ address: '8.8.8.8', family: 4, literal: true });
    expect(local.asked).toEqual([]);
  });

  it('never names the resolved address in its message', async () => {
    const error = await resolveAllowedAddress('internal.example.com', { allowPrivate: false, lookup: dns.lookup }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkGuardError);
    expect((error as Error).message).not.toContain('10.0.0.5');
  });

  it('treats a DNS answer that never comes as not found', async () => {
    const never = () => new Promise<LookupAddress[]>(() => {});
    expect(await reasonOf(resolveAllowedAddress('slow.example.com', { allowPrivate: false, lookup: never, timeoutMs: 20 }))).toBe('host_not_found');
  });

  it('resolves a real name through the system resolver by default', async () => {
    expect(await reasonOf(resolveAllowedAddress('localhost', { allowPrivate: false }))).toBe('blocked_address');
    expect((await resolveAllowedAddress('localhost', { allowPrivate: true })).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(await reasonOf(resolveAllowedAddress('nonexistent.invalid', { allowPrivate: true }))).toBe('host_not_found');
  });
});

describe('guardedLookup (for net.connect)', () => {
  it('lets a socket connect to an allowed address and refuses a blocked one before connecting', async () => {
    const server = net.createServer((socket) => socket.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const connect = (allowPrivate: boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: 'localhost', port, lookup: guardedLookup({ allowPrivate }) });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
    try {
      expect(await connect(true)).toBe('hi');
      await expect(connect(false)).rejects.toMatchObject({ reason: 'blocked_address' });
    } finally {
      server.close();
    }
  });
});
