/**
 * The web server's direct path for REST requests without a body (rest-direct.ts): over a real socket it answers
 * exactly what the fetch path answers the same request (status, envelope, the API's security headers, the
 * procedure's cookies), and only bodiless REST requests take it.
 */
import http, { type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPolicy } from './security-headers';
import { createApiKeyFor, createMember, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { directRestTargetOf } from './api-handler';
import { nodeRequestHeaders } from './node-headers';
import { startWebServer, type WebServer } from './web-server';

await useTestDatabase();

let web: WebServer;
let member: TestMember;
let key: string;

beforeAll(async () => {
  web = await startWebServer({ pages: { kind: 'none' }, port: 0, host: '127.0.0.1' });
  member = await createMember();
  key = (await createApiKeyFor(member, ['tables:read'])).secret;
});

afterAll(async () => {
  await web.close();
});

/** The same request over the socket (the direct path when bodiless) and in process through the fetch handler. */
async function bothWays(method: string, path: string, headers: Record<string, string> = {}) {
  const overSocket = await fetch(`${web.url}${path}`, { method, headers });
  const socketText = await overSocket.text();
  const inProcess = await call(method, path, { headers });
  return { overSocket, socketText, inProcess };
}

function expectApiSecurityHeaders(response: Response) {
  expect(response.headers.get('content-security-policy')).toBe(apiPolicy);
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
}

describe('a bodiless REST request answered directly from node:http', () => {
  it('GET /api/v1/auth/me by key: the same 200 body as the fetch path, JSON with its length and the security headers', async () => {
    const { overSocket, socketText, inProcess } = await bothWays('GET', '/api/v1/auth/me', { authorization: `Bearer ${key}` });
    expect(overSocket.status).toBe(200);
    expect(inProcess.status).toBe(200);
    expect(JSON.parse(socketText)).toEqual(inProcess.body);
    expect(JSON.parse(socketText).member.email).toBe(member.email);
    expect(overSocket.headers.get('content-type')).toBe('application/json');
    expect(overSocket.headers.get('content-length')).toBe(String(Buffer.byteLength(socketText)));
    expectApiSecurityHeaders(overSocket);
  });

  it('failures answer the same envelope: 401 without a credential, 404 for an unknown route, 403 for a key without the scope', async () => {
    const cases: [string, Record<string, string>, number, string][] = [
      ['/api/v1/auth/me', {}, 401, 'auth.unauthenticated'],
      ['/api/v1/auth/me', { authorization: 'Bearer mk_not-a-key' }, 401, 'auth.unauthenticated'],
      ['/api/v1/no-such-route', { authorization: `Bearer ${key}` }, 404, 'request.not_found'],
      ['/api/v1/workflows', { authorization: `Bearer ${key}` }, 403, 'api_key.scope_missing'],
    ];
    for (const [path, headers, status, code] of cases) {
      const { overSocket, socketText, inProcess } = await bothWays('GET', path, headers);
      expect(overSocket.status, path).toBe(status);
      expect(inProcess.status, path).toBe(status);
      expect(JSON.parse(socketText).error.code, path).toBe(code);
      expect(JSON.parse(socketText)).toEqual(inProcess.body);
      expectApiSecurityHeaders(overSocket);
    }
  });

  it('a HEAD nobody routes is 204, as on the fetch path', async () => {
    const { overSocket, inProcess } = await bothWays('HEAD', '/api/v1/no-such-route');
    expect(overSocket.status).toBe(204);
    expect(inProcess.status).toBe(204);
  });

  it('prototype names in the query are ignored or 400, never 500, and answered alike', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const { overSocket, socketText, inProcess } = await bothWays('GET', `/api/v1/tables?${name}=x&${name}=y`, { authorization: `Bearer ${key}` });
      expect([200, 400], name).toContain(overSocket.status);
      expect(overSocket.status, name).toBe(inProcess.status);
      expect(JSON.parse(socketText)).toEqual(inProcess.body);
    }
  });

  it('a POST without a body signs out with the procedure’s Set-Cookie; a foreign origin is refused 403 auth.cross_origin first', async () => {
    const refused = await fetch(`${web.url}/api/v1/auth/logout`, { method: 'POST', headers: { cookie: member.cookie, origin: 'https://evil.example' } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('auth.cross_origin');

    const signedOut = await fetch(`${web.url}/api/v1/auth/logout`, { method: 'POST', headers: { cookie: member.cookie } });
    expect(signedOut.status).toBe(200);
    const cookies = signedOut.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatch(/^session=;/);
    expectApiSecurityHeaders(signedOut);
    // The session is gone: the same cookie now opens nothing.
    expect((await fetch(`${web.url}/api/v1/auth/me`, { headers: { cookie: member.cookie } })).status).toBe(401);
  });

  it('a target with a dot segment still answers 400 request.bad_request (the fetch path refuses it)', async () => {
    // node:http's client sends the path as written (fetch would resolve the segment before sending).
    const { port } = new URL(web.url);
    for (const path of ['/api/v1/tables/..', '/api/v1/tables/%2e%2e']) {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: Number(port), path, headers: { authorization: `Bearer ${key}` } }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body).error.code, path).toBe('request.bad_request');
    }
  });
});

function requestOf(method: string, url: string, headers: Record<string, string> = {}): IncomingMessage {
  return { method, url, headers } as unknown as IncomingMessage;
}

describe('which requests take the direct path', () => {
  it('bodiless REST requests only: not a body, not tRPC, not a plain route, not a target the fetch path refuses', () => {
    expect(directRestTargetOf(requestOf('GET', '/api/v1/auth/me'))?.pathname).toBe('/api/v1/auth/me');
    expect(directRestTargetOf(requestOf('DELETE', '/api/v1/tables/abc?x=1'))?.search).toBe('?x=1');
    expect(directRestTargetOf(requestOf('POST', '/api/v1/auth/logout', { 'content-length': '0' }))).not.toBeNull();
    expect(directRestTargetOf(requestOf('POST', '/api/v1/tables', { 'content-length': '2' }))).toBeNull();
    expect(directRestTargetOf(requestOf('POST', '/api/v1/tables', { 'transfer-encoding': 'chunked' }))).toBeNull();
    expect(directRestTargetOf(requestOf('GET', '/api/trpc/auth.me'))).toBeNull();
    expect(directRestTargetOf(requestOf('GET', '/healthz'))).toBeNull();
    expect(directRestTargetOf(requestOf('GET', '/api/v1/tables/..'))).toBeNull();
  });
});

describe('node:http headers read as fetch Headers', () => {
  const headers = nodeRequestHeaders({ authorization: 'Bearer x', cookie: 'a=1; b=2', 'set-cookie': ['a=1', 'b=2'] });

  it('answers get and has by any case, a list joined as Headers joins it', () => {
    expect(headers.get('Authorization')).toBe('Bearer x');
    expect(headers.has('COOKIE')).toBe(true);
    expect(headers.get('set-cookie')).toBe('a=1, b=2');
    expect(headers.get('origin')).toBeNull();
    expect(headers.has('origin')).toBe(false);
  });

  it('never finds a prototype’s property under a header name', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(headers.get(name), name).toBeNull();
      expect(headers.has(name), name).toBe(false);
    }
  });
});
