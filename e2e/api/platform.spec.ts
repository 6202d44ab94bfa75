/**
 * Contract rows over real HTTP against the production server: what a program sees.
 */
import { expect, test } from '@playwright/test';
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
