/**
 * SSRF: the HTTP node's capability reaches none of these targets. A local listener (the "victim",
 * on 127.0.0.1) records every request it receives: it must record none. The tests run with
 * MAIL_ALLOW_PRIVATE_HOSTS=1 (server/testing/test-env.ts): the HTTP node must not honour that flag.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeFailure, RateLimited } from '../engine/contract/failures';
import { createHttpCapability, parseAllowHosts, retryAfterOf } from './http';

const hits: string[] = [];
let victim: http.Server;
let victimPort: number;
let redirector: http.Server;
let redirectorPort: number;

/** The fake DNS. */
const names: Record<string, string[]> = {
  'localhost.example': ['127.0.0.1'],
  'intranet.example': ['10.0.0.5'],
  'router.example': ['192.168.1.1'],
  'corp.example': ['172.16.0.10'],
  'cgnat.example': ['100.64.0.1'],
  'linklocal.example': ['169.254.10.10'],
  'metadata.google.internal': ['169.254.169.254'],
  'aws-metadata.example': ['169.254.169.254'],
  'v6-local.example': ['::1'],
  'ula.example': ['fd12:3456::1'],
  'mixed.example': ['93.184.216.34', '127.0.0.1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'zero.example': ['0.0.0.0'],
  'redirector.example': ['127.0.0.1'],
  'allowed-meta.example': ['169.254.169.254'],
};
const bomb = gzipSync(Buffer.alloc(50_000_000));
let rebindCalls = 0;
const lookup = async (host: string): Promise<LookupAddress[]> => {
  if (host === 'rebind.example') {
    rebindCalls += 1;
    // Public at the first answer, loopback after: the connection must use the first (checked) one.
    return [{ address: rebindCalls === 1 ? '203.0.113.200' : '127.0.0.1', family: 4 }];
  }
  const addresses = names[host];
  if (!addresses) throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

beforeAll(async () => {
  victim = http.createServer((request, response) => {
    hits.push(`${request.headers.host}${request.url}`);
    response.end('reached');
  });
  await new Promise<void>((resolve) => victim.listen(0, '127.0.0.1', resolve));
  victimPort = (victim.address() as AddressInfo).port;
  redirector = http.createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    const to = url.searchParams.get('to');
    if (to) response.writeHead(302, { location: to.replace('VICTIM', String(victimPort)) }).end();
    // Headers and half the body, then the connection dropped; or headers never sent.
    else if (url.pathname === '/cut') {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      response.write('{"partial":');
      setTimeout(() => request.socket.destroy(), 20);
    } else if (url.pathname === '/silent') request.resume();
    else if (url.pathname === '/limited') response.writeHead(429, { 'retry-after': '120' }).end();
    else if (url.pathname === '/big') response.end('x'.repeat(5_000));
    // 50 MB of zeros in 49 KB: counted decoded, so refused at the node's bound, not at the 49 KB.
    else if (url.pathname === '/bomb') response.writeHead(200, { 'content-encoding': 'gzip' }).end(bomb);
    else if (url.pathname === '/zipped') response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"ok":true}'));
    else response.writeHead(200, { 'content-type': 'text/plain' }).end('redirector ok');
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorPort = (redirector.address() as AddressInfo).port;
});

afterAll(() => {
  for (const server of [victim, redirector]) {
    server.closeAllConnections();
    server.close();
  }
});

const capability = createHttpCapability({ simulated: false, allowHosts: 'redirector.example', lookup, timeoutMs: 5_000, connectTimeoutMs: 1_000 });

function request(url: string, extra: Partial<Parameters<typeof capability.request>[0]> = {}) {
  return capability.request({ method: 'GET', url, headers: {}, maxResponseBytes: 1_000_000, followRedirects: true, signal: new AbortController().signal, ...extra });
}

async function outcome(url: string): Promise<string> {
  try {
    await request(url);
    return 'reached';
  } catch (error) {
    return error instanceof NodeFailure ? error.code : `other: ${(error as Error).message}`;
  }
}

const V = () => victimPort;
const R = () => redirectorPort;
const redirectTo = (target: string) => `http://redirector.example:${R()}/?to=${encodeURIComponent(target)}`;

const targets: [string, () => string][] = [
  ['loopback 127.0.0.1', () => `http://127.0.0.1:${V()}/`],
  ['loopback 127.1', () => `http://127.1:${V()}/`],
  ['loopback 127.0.1', () => `http://127.0.1:${V()}/`],
  ['loopback hex 0x7f000001', () => `http://0x7f000001:${V()}/`],
  ['loopback hex dotted 0x7f.0.0.1', () => `http://0x7f.0.0.1:${V()}/`],
  ['loopback decimal 2130706433', () => `http://2130706433:${V()}/`],
  ['loopback octal 0177.0.0.1', () => `http://0177.0.0.1:${V()}/`],
  ['loopback 127.255.255.254', () => `http://127.255.255.254:${V()}/`],
  ['IPv6 loopback [::1]', () => `http://[::1]:${V()}/`],
  ['IPv4-mapped [::ffff:127.0.0.1]', () => `http://[::ffff:127.0.0.1]:${V()}/`],
  ['IPv4-mapped hex [::ffff:7f00:1]', () => `http://[::ffff:7f00:1]:${V()}/`],
  ['unspecified 0.0.0.0', () => `http://0.0.0.0:${V()}/`],
  ['unspecified 0', () => `http://0:${V()}/`],
  ['unspecified [::]', () => `http://[::]:${V()}/`],
  ['private 10.0.0.1', () => 'http://10.0.0.1/'],
  ['private 172.16.0.1', () => 'http://172.16.0.1/'],
  ['private 172.31.255.255', () => 'http://172.31.255.255/'],
  ['private 192.168.0.1', () => 'http://192.168.0.1/'],
  ['CGNAT 100.64.0.1', () => 'http://100.64.0.1/'],
  ['link-local 169.254.1.1', () => 'http://169.254.1.1/'],
  ['metadata 169.254.169.254', () => 'http://169.254.169.254/latest/meta-data/'],
  ['metadata IPv6 fd00:ec2::254', () => 'http://[fd00:ec2::254]/'],
  ['metadata Alibaba 100.100.100.200', () => 'http://100.100.100.200/'],
  ['metadata.google.internal', () => 'http://metadata.google.internal/computeMetadata/v1/'],
  ['ULA fc00::1', () => 'http://[fc00::1]/'],
  ['ULA fd12:3456::1', () => 'http://[fd12:3456::1]/'],
  ['link-local IPv6 fe80::1', () => 'http://[fe80::1]/'],
  ['NAT64 64:ff9b::7f00:1', () => `http://[64:ff9b::7f00:1]:${V()}/`],
  ['6to4 2002:7f00:1::', () => `http://[2002:7f00:1::]:${V()}/`],
  ['name → 127.0.0.1', () => `http://localhost.example:${V()}/`],
  ['name → 10.0.0.5', () => 'http://intranet.example/'],
  ['name → 192.168.1.1', () => 'http://router.example/'],
  ['name → 172.16.0.10', () => 'http://corp.example/'],
  ['name → 100.64.0.1', () => 'http://cgnat.example/'],
  ['name → 169.254.10.10', () => 'http://linklocal.example/'],
  ['name → metadata', () => 'http://aws-metadata.example/'],
  ['name → ::1', () => `http://v6-local.example:${V()}/`],
  ['name → ULA', () => 'http://ula.example/'],
  ['name → ::ffff:127.0.0.1', () => `http://mapped.example:${V()}/`],
  ['name → 0.0.0.0', () => `http://zero.example:${V()}/`],
  ['name → public and loopback', () => `http://mixed.example:${V()}/`],
  ['allowed name redirecting to 127.0.0.1', () => redirectTo('http://127.0.0.1:VICTIM/')],
  ['allowed name redirecting to [::1]', () => redirectTo('http://[::1]:VICTIM/')],
  ['allowed name redirecting to a name → 127.0.0.1', () => redirectTo('http://localhost.example:VICTIM/')],
  ['allowed name redirecting to metadata', () => redirectTo('http://169.254.169.254/latest/meta-data/')],
  ['allowed name redirecting to 2130706433', () => redirectTo('http://2130706433:VICTIM/')],
];

describe('HTTP node capability: SSRF', () => {
  it(`has at least 40 targets (${targets.length})`, () => {
    expect(targets.length).toBeGreaterThanOrEqual(40);
  });

  it.each(targets)('%s is blocked', async (_name, url) => {
    expect(await outcome(url())).toBe('http_blocked');
  });

  it('does not connect to a rebinding name’s second answer', async () => {
    rebindCalls = 0;
    // The first (public, unreachable here) answer is the one connected to: a connect error, never the victim.
    const result = await outcome(`http://rebind.example:${V()}/`);
    expect(['http_error', 'http_blocked']).toContain(result);
    expect(rebindCalls).toBe(1);
  });

  it.each([
    ['a non-http scheme', 'file:///etc/passwd'],
    ['gopher', 'gopher://127.0.0.1:70/'],
    ['a malformed URL', 'http://'],
  ])('refuses %s', async (_name, url) => {
    expect(await outcome(url)).toBe('http_blocked');
  });

  it('reached no target (the victim recorded no request)', () => {
    expect(hits).toEqual([]);
  });

  it('reaches a host HTTP_NODE_ALLOW_HOSTS names (the control that the servers answer)', async () => {
    const response = await request(`http://redirector.example:${R()}/`);
    expect(response).toMatchObject({ status: 200, body: 'redirector ok' });
  });

  it('a CIDR entry opens its addresses only', async () => {
    const byCidr = createHttpCapability({ simulated: false, allowHosts: '127.0.0.0/8', lookup, connectTimeoutMs: 1_000 });
    const response = await byCidr.request({ method: 'GET', url: `http://127.0.0.1:${R()}/`, headers: {}, maxResponseBytes: 1000, followRedirects: true, signal: new AbortController().signal });
    expect(response.status).toBe(200);
    await expect(byCidr.request({ method: 'GET', url: 'http://10.0.0.1/', headers: {}, maxResponseBytes: 1000, followRedirects: true, signal: new AbortController().signal })).rejects.toMatchObject({
      code: 'http_blocked',
    });
  });

  it('never opens metadata addresses, even when listed', async () => {
    const listed = createHttpCapability({ simulated: false, allowHosts: 'allowed-meta.example,169.254.169.254/32,metadata.google.internal', lookup, connectTimeoutMs: 1_000 });
    for (const url of ['http://allowed-meta.example/', 'http://169.254.169.254/', 'http://metadata.google.internal/']) {
      await expect(listed.request({ method: 'GET', url, headers: {}, maxResponseBytes: 1000, followRedirects: true, signal: new AbortController().signal })).rejects.toMatchObject({
        code: 'http_blocked',
      });
    }
  });

  it('returns a redirect unfollowed when asked', async () => {
    const response = await request(redirectTo('http://127.0.0.1:VICTIM/'), { followRedirects: false });
    expect(response.status).toBe(302);
    expect(hits).toEqual([]);
  });

  it('bounds the response body', async () => {
    await expect(request(`http://redirector.example:${R()}/big`, { maxResponseBytes: 1_000 })).rejects.toMatchObject({ code: 'http_response_too_large', kind: 'permanent' });
  });

  it('reads a compressed answer decoded, and bounds it by its decoded size (a small bomb is refused unread)', async () => {
    const zipped = await request(`http://redirector.example:${R()}/zipped`);
    expect(zipped.body).toBe('{"ok":true}');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    const memoryBefore = process.memoryUsage().rss;
    await expect(request(`http://redirector.example:${R()}/bomb`, { maxResponseBytes: 1_000_000 })).rejects.toMatchObject({ code: 'http_response_too_large', kind: 'permanent' });
    // Inflated only as read: the refusal came long before the 50 MB were made.
    expect(process.memoryUsage().rss - memoryBefore).toBeLessThan(40_000_000);
  });

  it('a body cut off and an answer that never comes are temporary failures, never an uncaught error', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(request(`http://redirector.example:${R()}/cut`)).rejects.toMatchObject({ code: 'http_error', kind: 'transient', message: 'The response was cut off.' });
      const impatient = createHttpCapability({ simulated: false, allowHosts: 'redirector.example', lookup, timeoutMs: 300, connectTimeoutMs: 1_000 });
      const silent = impatient.request({ method: 'GET', url: `http://redirector.example:${R()}/silent`, headers: {}, maxResponseBytes: 1_000, followRedirects: true, signal: new AbortController().signal });
      await expect(silent).rejects.toMatchObject({ code: 'http_error', kind: 'transient', message: 'The request could not be sent or got no answer.' });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });

  it('turns a 429 with Retry-After into a postponement', async () => {
    const before = Date.now();
    const error = await request(`http://redirector.example:${R()}/limited`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RateLimited);
    expect((error as RateLimited).retryAt.getTime()).toBeGreaterThanOrEqual(before + 119_000);
  });

  it('does nothing in a test run', async () => {
    const simulated = createHttpCapability({ simulated: true, lookup });
    expect(await simulated.request({ method: 'POST', url: `http://127.0.0.1:${V()}/`, headers: {}, maxResponseBytes: 10, followRedirects: true, signal: new AbortController().signal })).toMatchObject({
      status: 200,
    });
    expect(hits).toEqual([]);
  });
});

describe('allow-list and Retry-After parsing', () => {
  it('reads names and CIDRs, ignoring junk', () => {
    const list = parseAllowHosts(' Sink.Local , 10.0.0.0/8, fd00::/8, bad/99, 1.2.3.4, ');
    expect([...list.names]).toEqual(['sink.local']);
    expect(list.networks.check('10.9.9.9', 'ipv4')).toBe(true);
    expect(list.networks.check('1.2.3.4', 'ipv4')).toBe(true);
    expect(list.networks.check('fd00::5', 'ipv6')).toBe(true);
    expect(list.networks.check('11.0.0.1', 'ipv4')).toBe(false);
  });

  it.each([
    ['120', 120_000],
    ['0', 0],
    [new Date(1_000_000 + 60_000).toUTCString(), 60_000],
    ['99999999', 24 * 3_600_000],
  ])('Retry-After %s → %d ms', (header, delay) => {
    expect(retryAfterOf(header, 1_000_000)!.getTime() - 1_000_000).toBe(delay);
  });

  it('ignores a Retry-After that is not a delay or a date', () => {
    expect(retryAfterOf('soon')).toBeNull();
    expect(retryAfterOf(null)).toBeNull();
  });
});
