/**
 * The web server's API entry over a real socket: tRPC, plain routes (from their declarations) and
 * REST procedures, with answers streamed back (the CSV export).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { handleApiRequest, isApiRequest } from './api-handler';
import { stampClientOrigin } from './client-origin';
import { serveWithFetchHandler } from './node-bridge';

await useTestDatabase();

let server: Server;
let base: string;
let admin: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  const serve = serveWithFetchHandler(handleApiRequest);
  server = createServer((req, res) => {
    stampClientOrigin(req, false);
    void serve(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('API entry', () => {
  it('takes REST, tRPC and every plain route’s path, and leaves pages to Next.js', () => {
    for (const url of ['/api/v1/tables', '/api/trpc/auth.me', '/api/v1/tables/x/export.csv?q=a', '/api/v1/openapi.json', '/healthz', '/readyz?x=1']) {
      expect(isApiRequest(url), url).toBe(true);
    }
    for (const url of ['/', '/login', '/tables/x', '/_next/static/chunk.js', '/healthzz']) expect(isApiRequest(url), url).toBe(false);
  });

  it('streams the CSV export through the plain route pipeline over the socket', async () => {
    const created = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      body: { name: 'Export me', columns: [{ label: 'Name', type: 'text' }] },
    });
    expect(created.status).toBe(201);
    const id = created.body.table.id;
    await call('POST', `/api/v1/tables/${id}/rows`, { cookie: admin.cookie, body: { cells: { name: 'Ada' } } });
    const response = await fetch(`${base}/api/v1/tables/${id}/export.csv?sort=name`, { headers: { cookie: admin.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await response.text()).toBe('Name\nAda\n');
    const unknown = await fetch(`${base}/api/v1/tables/${id}/export.csv?constructor=x`, { headers: { cookie: admin.cookie } });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.code).toBe('request.bad_request');
    const proto = await fetch(`${base}/api/v1/tables/${id}/export.csv?__proto__=x`, { headers: { cookie: admin.cookie } });
    expect(proto.status).toBe(200);
    await proto.text();
  });

  it('serves the health checks and the document as plain routes', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(health.headers.get('connection')).not.toBe('close');
    expect((await health.json()).status).toBe('ok');
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect((await (await fetch(`${base}/api/v1/openapi.json?lang=fr`)).json()).openapi).toMatch(/^3\.1/);
  });

  it('answers unknown API paths 404 in the envelope', async () => {
    const response = await fetch(`${base}/api/v1/nothing-here`, { headers: { cookie: admin.cookie } });
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('request.not_found');
  });
});
