/** The REST fast path of the web server: node:http request → fetch handler → node:http response. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRaw, startBridgeServer, type BridgeServer } from '../testing/bridge-server';
import { createMember, testPassword, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
import { handleRestRequest } from './rest-handler';

await useTestDatabase();

let server: BridgeServer;
let base: string;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  server = await startBridgeServer(handleRestRequest);
  base = server.base;
});

afterAll(() => server.close());

describe('REST over node:http', () => {
  it('passes the JSON body through and returns the Set-Cookie header', async () => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: member.email, password: testPassword }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()[0]).toMatch(/^session=/);
    expect((await response.json()).member.id).toBe(member.id);
  });

  it('answers a query-string route with the caller’s session', async () => {
    const response = await fetch(`${base}/api/v1/auth/me`, { headers: { cookie: member.cookie } });
    expect((await response.json()).member.email).toBe(member.email);
  });

  it('answers a streamed body above 5 MB with 413', async () => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x'.repeat(6 * 1024 * 1024), password: 'x' }),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe('request.payload_too_large');
  });

  it('stamps the client address itself, ignoring a client-sent copy', async () => {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mailflow-client-ip': `203.0.113.${attempt}` },
        body: JSON.stringify({ email: member.email, password: 'wrong-password' }),
      });
    }
    const limited = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mailflow-client-ip': '203.0.113.99' },
      body: JSON.stringify({ email: member.email, password: testPassword }),
    });
    expect(limited.status).toBe(429);
  });

  it('answers a request whose Host is not a host name 400 in the envelope, never 500 (fuzzed surface)', async () => {
    const raw = await sendRaw(server.port, 'GET /api/v1/branding HTTP/1.1\r\nHost: exa mple..invalid:99999\r\nConnection: close\r\n\r\n');
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    const brokenTarget = await sendRaw(server.port, 'GET http://[/api/v1/branding HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect(brokenTarget).toMatch(/^HTTP\/1\.1 400 /);
    expect(brokenTarget).toContain('"code":"request.bad_request"');
  });

  it.each(['/api/v1/tables/%2e%2e/branding', '/api/v1/x/../branding', '/api/v1/x/./../branding', '/api/v1/x\\..\\branding', '/api/v1/x/.%2E/branding'])(
    'refuses a target with dot segments (%s) 400 instead of resolving it onto another route',
    async (target) => {
      const raw = await sendRaw(server.port, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw).toContain('"code":"request.bad_request"');
    },
  );

  it.each([
    ['a malformed header line', 'GET /api/v1/branding HTTP/1.1\r\nHost: localhost\r\nnot a header\r\n\r\n', 400, 'request.bad_request'],
    ['headers over 16 KB', `GET /api/v1/branding HTTP/1.1\r\nHost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request.headers_too_large'],
    ['a body longer than its Content-Length', 'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}garbage that is not HTTP\r\n\r\n', 400, 'request.bad_request'],
  ])('answers what node:http refuses itself (%s) in the envelope', async (_name, bytes, status, code) => {
    const raw = await sendRaw(server.port, bytes);
    const answers = raw.split(/(?=HTTP\/1\.1 )/);
    const last = answers[answers.length - 1];
    expect(last).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(last).toContain(`"code":"${code}"`);
  });

  it('does not log a client that aborts mid-body as a server error', async () => {
    const { log } = await import('../core/log');
    const errors: unknown[] = [];
    const original = log.error.bind(log);
    log.error = ((...args: unknown[]) => void errors.push(args)) as typeof log.error;
    try {
      await sendRaw(server.port, 'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"email":"', { destroyAfterMs: 50 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors).toEqual([]);
    } finally {
      log.error = original;
    }
  });
});
