/** The REST fast path of the web server: node:http request → fetch handler → node:http response. */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, testPassword, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
import { answerClientErrorsOf } from './client-error';
import { stampClientOrigin } from './client-origin';
import { serveWithFetchHandler } from './node-bridge';
import { handleRestRequest } from './rest-handler';

await useTestDatabase();

let server: Server;
let base: string;
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
  const serve = serveWithFetchHandler(handleRestRequest);
  server = createServer((req, res) => {
    stampClientOrigin(req, false);
    void serve(req, res);
  });
  answerClientErrorsOf(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

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
    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end('GET /api/v1/branding HTTP/1.1\r\nHost: exa mple..invalid:99999\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200 /);
    const brokenTarget = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end('GET http://[/api/v1/branding HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(brokenTarget).toMatch(/^HTTP\/1\.1 400 /);
    expect(brokenTarget).toContain('"code":"request.bad_request"');
  });

  it.each(['/api/v1/tables/%2e%2e/branding', '/api/v1/x/../branding', '/api/v1/x/./../branding', '/api/v1/x\\..\\branding', '/api/v1/x/.%2E/branding'])(
    'refuses a target with dot segments (%s) 400 instead of resolving it onto another route',
    async (target) => {
      const { port } = server.address() as AddressInfo;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.end(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('latin1')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(raw).toMatch(/^HTTP\/1\.1 400 /);
      expect(raw).toContain('"code":"request.bad_request"');
    },
  );

  it.each([
    ['a malformed header line', 'GET /api/v1/branding HTTP/1.1\r\nHost: localhost\r\nnot a header\r\n\r\n', 400, 'request.bad_request'],
    ['headers over 16 KB', `GET /api/v1/branding HTTP/1.1\r\nHost: localhost\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request.headers_too_large'],
    ['a body longer than its Content-Length', 'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}garbage that is not HTTP\r\n\r\n', 400, 'request.bad_request'],
  ])('answers what node:http refuses itself (%s) in the envelope', async (_name, bytes, status, code) => {
    const { port } = server.address() as AddressInfo;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
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
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"email":"');
          setTimeout(() => socket.destroy(), 50);
        });
        socket.on('close', () => resolve());
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(errors).toEqual([]);
    } finally {
      log.error = original;
    }
  });
});
