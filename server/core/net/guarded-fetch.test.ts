import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch';
import { NetworkGuardError } from './network-guard';

/** Names of the fake DNS: `app.test` is the local server (loopback), `public.test` pretends to be public. */
const lookup = (host: string): Promise<LookupAddress[]> => {
  if (host === 'app.test' || host === 'other.test') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  if (host === 'internal.test') return Promise.resolve([{ address: '10.1.2.3', family: 4 }]);
  return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
};

let server: http.Server;
let port: number;
const seen: { url: string; method: string; authorization?: string; apiKey?: string; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: `${request.headers.host}${request.url}`, method: request.method!, authorization: request.headers.authorization, apiKey: request.headers['x-api-key'] as string | undefined, body });
      const url = new URL(request.url!, 'http://x');
      const to = url.searchParams.get('to');
      const status = Number(url.searchParams.get('status') ?? 302);
      if (url.pathname === '/redirect' && to) {
        response.writeHead(status, { location: to.replace('PORT', String(port)) }).end();
      } else if (url.pathname === '/loop') {
        response.writeHead(302, { location: '/loop' }).end();
      } else {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${request.method} ${url.pathname}`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof NetworkGuardError ? error.reason : `other: ${(error as Error).message}`;
  }
}

describe('guardedFetch', () => {
  it('fetches from an allowed host', async () => {
    const response = await guardedFetch(`http://app.test:${port}/hello`, {}, { allowPrivate: true, lookup });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ok GET /hello');
  });

  it.each([
    ['http://app.test:PORT/x', 'blocked_address'], // loopback by DNS
    ['http://internal.test:PORT/x', 'blocked_address'],
    ['http://127.0.0.1:PORT/x', 'blocked_address'],
    ['http://2130706433:PORT/x', 'blocked_address'],
    ['http://0x7f.1:PORT/x', 'blocked_address'],
    ['http://[::1]:PORT/x', 'blocked_address'],
    ['http://[::ffff:127.0.0.1]:PORT/x', 'blocked_address'],
    ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    ['http://nowhere.test/x', 'host_not_found'],
    ['ftp://app.test/x', 'unsupported_url'],
    ['file:///etc/passwd', 'unsupported_url'],
    ['javascript:alert(1)', 'unsupported_url'],
    ['not a url', 'unsupported_url'],
  ])('refuses %s without allowPrivate: %s', async (url, reason) => {
    const before = seen.length;
    expect(await reasonOf(guardedFetch(url.replace('PORT', String(port)), {}, { allowPrivate: false, lookup }))).toBe(reason);
    expect(seen.length).toBe(before); // nothing reached the server
  });

  it('follows redirects, checking every hop', async () => {
    const response = await guardedFetch(
      `http://app.test:${port}/redirect?to=${encodeURIComponent('/final')}`,
      {},
      { allowPrivate: true, lookup },
    );
    expect(await response.text()).toBe('ok GET /final');
  });

  it('refuses a redirect to a blocked address, even when the first host was allowed', async () => {
    const to = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    expect(await reasonOf(guardedFetch(`http://app.test:${port}/redirect?to=${to}`, {}, { allowPrivate: true, lookup }))).toBe('blocked_address');
    const toFile = encodeURIComponent('file:///etc/passwd');
    expect(await reasonOf(guardedFetch(`http://app.test:${port}/redirect?to=${toFile}`, {}, { allowPrivate: true, lookup }))).toBe('unsupported_url');
  });

  it('stops after 5 redirects', async () => {
    expect(await reasonOf(guardedFetch(`http://app.test:${port}/loop`, {}, { allowPrivate: true, lookup }))).toBe('too_many_redirects');
  });

  it('turns a POST into a GET on 303 and keeps it on 307', async () => {
    const post = (status: number) =>
      guardedFetch(
        `http://app.test:${port}/redirect?status=${status}&to=${encodeURIComponent('/target')}`,
        { method: 'POST', body: 'payload', headers: { 'content-type': 'text/plain' } },
        { allowPrivate: true, lookup },
      );
    expect(await (await post(303)).text()).toBe('ok GET /target');
    const response = await post(307);
    expect(await response.text()).toBe('ok POST /target');
    expect(seen.at(-1)?.body).toBe('payload');
  });

  it('drops credentials when a redirect leaves the origin', async () => {
    const to = encodeURIComponent(`http://other.test:PORT/landing`);
    await (
      await guardedFetch(`http://app.test:${port}/redirect?to=${to}`, { headers: { authorization: 'Bearer secret' } }, { allowPrivate: true, lookup })
    ).text();
    const [first, second] = seen.slice(-2);
    expect(first.authorization).toBe('Bearer secret');
    expect(second.url).toBe(`other.test:${port}/landing`);
    expect(second.authorization).toBeUndefined();
  });

  it('credentials dropped on origin change: the caller’s secret headers and query parameters do not follow a redirect to another origin', async () => {
    const to = encodeURIComponent(`http://other.test:PORT/landing?key=k-123&page=2`);
    await (
      await guardedFetch(
        `http://app.test:${port}/redirect?to=${to}&key=k-123`,
        { headers: { 'x-api-key': 'k-456' } },
        { allowPrivate: true, lookup, secretHeaders: ['X-Api-Key'], secretQueryParams: ['key'] },
      )
    ).text();
    const [first, second] = seen.slice(-2);
    expect(first.apiKey).toBe('k-456');
    expect(second.url).toBe(`other.test:${port}/landing?page=2`);
    expect(second.apiKey).toBeUndefined();
  });

  it('keeps them on a redirect within the origin', async () => {
    await (
      await guardedFetch(`http://app.test:${port}/redirect?to=${encodeURIComponent('/next?key=k-1')}`, { headers: { 'x-api-key': 'k-456' } }, { allowPrivate: true, lookup, secretHeaders: ['x-api-key'], secretQueryParams: ['key'] })
    ).text();
    expect(seen.at(-1)).toMatchObject({ url: `app.test:${port}/next?key=k-1`, apiKey: 'k-456' });
  });

  it('checkHop sees every hop before it is sent and stops the exchange by throwing', async () => {
    const checked: string[] = [];
    const refusal = new Error('not this host');
    const before = seen.length;
    const to = encodeURIComponent(`http://other.test:PORT/landing`);
    const attempt = guardedFetch(`http://app.test:${port}/redirect?to=${to}`, {}, {
      allowPrivate: true,
      lookup,
      checkHop: (url) => {
        checked.push(url.host);
        if (url.hostname === 'other.test') throw refusal;
      },
    });
    await expect(attempt).rejects.toBe(refusal);
    expect(checked).toEqual([`app.test:${port}`, `other.test:${port}`]);
    expect(seen.slice(before).map((item) => item.url.split('/')[0])).toEqual([`app.test:${port}`]);
  });
});
