/**
 * guardedRequest: the exchange a workflow's HTTP node saw through fetch, without fetch. The same answer (status,
 * headers, decoded body, last URL), the same default request headers, the same redirect rules (the hop loop is
 * guardedFetch's), and bodies dropped without an uncaught error.
 */
import type { LookupAddress } from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedFetch } from './guarded-fetch';
import { discardBody, guardedRequest } from './guarded-request';
import { NetworkGuardError } from './network-guard';

const lookup = (host: string): Promise<LookupAddress[]> => {
  if (host === 'app.test' || host === 'other.test') return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
  if (host === 'internal.test') return Promise.resolve([{ address: '10.1.2.3', family: 4 }]);
  return Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));
};
const options = { allowPrivate: true, lookup } as const;

const payload = '{"hello":"world","n":42}';
const encodings: Record<string, Buffer> = {
  gzip: gzipSync(payload),
  'x-gzip': gzipSync(payload),
  deflate: deflateSync(payload),
  br: brotliCompressSync(payload),
  'gzip, br': brotliCompressSync(gzipSync(payload)),
  unknown: Buffer.from('as sent'),
};

let server: http.Server;
let port: number;
const received: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    received.push(request.headers);
    const url = new URL(request.url!, 'http://x');
    const coding = url.searchParams.get('coding');
    if (url.pathname === '/encoded' && coding === 'raw-deflate') response.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateRawSync(payload));
    else if (url.pathname === '/encoded' && coding) response.writeHead(200, { 'content-encoding': coding }).end(encodings[coding]);
    else if (url.pathname === '/cookies') response.writeHead(200, [['x-many', 'a'], ['x-many', 'b'], ['content-type', 'text/plain']]).end('two');
    else if (url.pathname === '/redirect') response.writeHead(302, { location: url.searchParams.get('to')!.replace('PORT', String(port)) }).end('moved');
    else if (url.pathname === '/long') response.end('x'.repeat(200_000));
    else response.writeHead(200, { 'content-type': 'text/plain' }).end(`${request.method} ${url.pathname} ${request.headers.authorization ?? '-'}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('guardedRequest', () => {
  it.each(['gzip', 'x-gzip', 'deflate', 'raw-deflate', 'br', 'gzip, br'])('decodes a %s body as fetch does', async (coding) => {
    const answer = await guardedRequest(`http://app.test:${port}/encoded?coding=${encodeURIComponent(coding)}`, {}, options);
    expect(await text(answer.body)).toBe(payload);
  });

  it('leaves a body in an unknown coding as sent, and a HEAD answer bodiless', async () => {
    const answer = await guardedRequest(`http://app.test:${port}/encoded?coding=unknown`, {}, options);
    expect(await text(answer.body)).toBe('as sent');
    const head = await guardedRequest(`http://app.test:${port}/encoded?coding=gzip`, { method: 'HEAD' }, options);
    expect(head.status).toBe(200);
    expect(await text(head.body)).toBe('');
  });

  it("sends fetch's default headers when the caller sets none, and the caller's own otherwise", async () => {
    received.length = 0;
    await text((await guardedRequest(`http://app.test:${port}/plain`, {}, options)).body);
    await text((await guardedRequest(`http://app.test:${port}/plain`, { headers: { accept: 'application/json', 'user-agent': 'mine/1', 'accept-encoding': 'identity' } }, options)).body);
    await (await guardedFetch(`http://app.test:${port}/plain`, {}, options)).text();
    const [ours, theirs, fetched] = received;
    for (const name of ['accept', 'accept-language', 'accept-encoding', 'user-agent']) expect(ours![name], name).toBe(fetched![name]);
    expect(theirs).toMatchObject({ accept: 'application/json', 'user-agent': 'mine/1', 'accept-encoding': 'identity' });
  });

  it('answers headers with lower-case names, a repeated one joined as fetch joins it', async () => {
    const answer = await guardedRequest(`http://app.test:${port}/cookies`, {}, options);
    expect(answer.headers['x-many']).toBe('a, b');
    expect(answer.headers['content-type']).toBe('text/plain');
    expect(await text(answer.body)).toBe('two');
  });

  it('follows redirects with the guard: credentials dropped off origin, the last URL answered, a blocked hop refused', async () => {
    const answer = await guardedRequest(
      `http://app.test:${port}/redirect?to=${encodeURIComponent('http://other.test:PORT/landed')}`,
      { headers: { authorization: 'Bearer secret' } },
      options,
    );
    expect(await text(answer.body)).toBe('GET /landed -');
    expect(answer.url).toBe(`http://other.test:${port}/landed`);
    const blocked = guardedRequest(`http://app.test:${port}/redirect?to=${encodeURIComponent('http://internal.test/')}`, {}, { allowPrivate: false, lookup, allowAddress: (host) => host === 'app.test' });
    await expect(blocked).rejects.toBeInstanceOf(NetworkGuardError);
    await expect(blocked).rejects.toMatchObject({ reason: 'blocked_address' });
  });

  it('drops a body unread without an uncaught error, which would end the process', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const answer = await guardedRequest(`http://app.test:${port}/long`, {}, options);
      discardBody(answer.body);
      const zipped = await guardedRequest(`http://app.test:${port}/encoded?coding=gzip`, {}, options);
      discardBody(zipped.body);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
  });
});
