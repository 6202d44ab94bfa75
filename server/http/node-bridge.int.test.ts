/** The REST fast path of the web server: node:http request → fetch handler → node:http response. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, testPassword, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
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
});
