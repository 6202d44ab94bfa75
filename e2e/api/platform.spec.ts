/**
 * Contract rows over real HTTP against the production server: what a program sees.
 */
import { expect, test } from '@playwright/test';
import { postNeverEndingChunkedBody } from '@/server/testing/raw-chunked';
import { e2eAdmin } from '../fixtures/env';

test('health and readiness answer without authentication', async ({ request }) => {
  const health = await request.get('/healthz');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
  const ready = await request.get('/readyz');
  expect(ready.status()).toBe(200);
  expect((await ready.json()).status).toBe('ready');
});

test('the OpenAPI document is served in English and French, 400 for another language', async ({ request }) => {
  const en = await request.get('/api/v1/openapi.json');
  expect(en.status()).toBe(200);
  expect((await en.json()).openapi).toMatch(/^3\.1/);
  const fr = await request.get('/api/v1/openapi.json?lang=fr');
  expect((await fr.json()).paths['/api/v1/auth/login'].post.summary).toBe('Se connecter');
  expect((await request.get('/api/v1/openapi.json?lang=de')).status()).toBe(400);
});

test('an unknown route is 404 request.not_found and malformed JSON is 400', async ({ request }) => {
  const unknown = await request.get('/api/v1/nothing-here');
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe('request.not_found');
  const malformed = await request.post('/api/v1/auth/login', { data: '{"email":', headers: { 'content-type': 'application/json' } });
  expect(malformed.status()).toBe(400);
  expect((await malformed.json()).error.code).toBe('request.bad_request');
});

test('sign-in sets the session cookie; the WebSocket refuses keys and anonymous callers', async ({ playwright, baseURL }) => {
  const context = await playwright.request.newContext({ baseURL });
  const login = await context.post('/api/v1/auth/login', { data: e2eAdmin });
  expect(login.status()).toBe(200);
  expect(login.headers()['set-cookie']).toMatch(/session=.*HttpOnly/i);
  const me = await context.get('/api/v1/auth/me');
  expect((await me.json()).member.email).toBe(e2eAdmin.email);
  const created = await context.post('/api/v1/api-keys', { data: { name: 'ws', scopes: ['admin:read'] } });
  const { secret } = await created.json();

  const anonymous = await playwright.request.newContext({ baseURL });
  const refused = await anonymous.get('/api/v1/ws/?EIO=4&transport=polling');
  expect(refused.status()).toBe(401);
  const withKey = await anonymous.get('/api/v1/ws/?EIO=4&transport=polling', { headers: { authorization: `Bearer ${secret}` } });
  expect(withKey.status()).toBe(403);
  expect((await withKey.json()).error.code).toBe('api_key.session_required');
  const withSession = await context.get('/api/v1/ws/?EIO=4&transport=polling');
  expect(withSession.status()).toBe(200);
  await context.dispose();
  await anonymous.dispose();
});

test('pages and API answers may not be framed; a page runs only the scripts stamped with its policy’s nonce', async ({ request }) => {
  const page = await request.get('/login');
  expect(page.status()).toBe(200);
  const headers = page.headers();
  expect(headers['x-frame-options']).toBe('DENY');
  const policy = headers['content-security-policy'] ?? '';
  expect(policy).toContain("frame-ancestors 'none'");
  const nonce = /script-src [^;]*'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce, policy).toBeTruthy();
  expect(policy).toMatch(/script-src [^;]*'strict-dynamic'/);
  expect(policy).not.toMatch(/script-src [^;]*'unsafe-(inline|eval)'/);
  // Next.js stamps every script of the page, its inline bootstrap included, with that nonce.
  const scripts = [...(await page.text()).matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) expect(script).toContain(`nonce="${nonce}"`);
  // Another page gets another nonce.
  const again = (await request.get('/login')).headers()['content-security-policy'];
  expect(again).not.toContain(`'nonce-${nonce}'`);

  for (const path of ['/api/v1/branding', '/api/v1/nothing-here', '/healthz']) {
    const answer = (await request.get(path)).headers();
    expect(answer['x-frame-options'], path).toBe('DENY');
    expect(answer['content-security-policy'], path).toContain("frame-ancestors 'none'");
  }
});

test('a chunked body above 5 MB answers 413 request.payload_too_large over a raw socket, on REST and tRPC alike', async ({ playwright, baseURL }) => {
  const { hostname, port } = new URL(baseURL!);
  const context = await playwright.request.newContext({ baseURL });
  await context.post('/api/v1/auth/login', { data: e2eAdmin });
  const cookie = (await context.storageState()).cookies.map((entry) => `${entry.name}=${entry.value}`).join('; ');
  await context.dispose();
  const routes: { path: string; headers: Record<string, string> }[] = [
    { path: '/api/v1/auth/login', headers: {} },
    { path: '/api/v1/workflows', headers: { cookie } },
    { path: '/api/trpc/auth.login', headers: {} },
  ];
  for (const route of routes) {
    for (const shape of ['never-ending-string', 'never-ending-extension'] as const) {
      const answer = await postNeverEndingChunkedBody({ host: hostname, port: Number(port), path: route.path, headers: route.headers, shape });
      const label = `${route.path} ${shape}`;
      expect(answer.status, label).toBe(413);
      const error = JSON.parse(answer.body).error;
      expect(error.data?.appError?.code ?? error.code, label).toBe('request.payload_too_large');
    }
  }
});

test('the sending journal answers an out-of-range limit with the common 400 request.bad_request', async ({ playwright, baseURL }) => {
  const context = await playwright.request.newContext({ baseURL });
  await context.post('/api/v1/auth/login', { data: e2eAdmin });
  const answer = await context.get('/api/v1/sending/journal?limit=201');
  expect(answer.status()).toBe(400);
  expect((await answer.json()).error.code).toBe('request.bad_request');
  await context.dispose();
});
