import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { open } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
const clientIdA = '123456789012-abc123def456.apps.googleusercontent.com';
const secretA = '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Z';

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

beforeEach(async () => {
  await db().oAuthApp.deleteMany();
});

function put(who: TestMember, provider: string, body: unknown) {
  return call('PUT', `/api/v1/admin/oauth-apps/${provider}`, { cookie: who.cookie, body });
}

describe('GET /api/v1/admin/oauth-apps/{provider}', () => {
  it('answers the full state when nothing is registered', async () => {
    const response = await call('GET', '/api/v1/admin/oauth-apps/oauth_provider_a', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      provider: 'oauth_provider_a',
      configured: false,
      clientId: null,
      hasSecret: false,
      clientSecretHint: null,
      status: null,
      redirectUri: expect.stringMatching(/^https?:\/\/[^/]+\/api\/v1\/oauth\/oauth_provider_a\/callback$/),
      scopes: expect.arrayContaining(['https://mail.google.com/', 'https://www.googleapis.com/auth/drive']),
      scopesByCapability: {
        mail: expect.arrayContaining(['https://mail.google.com/']),
        drive: expect.any(Array),
        calendar: expect.any(Array),
        sheets: expect.any(Array),
        files: [],
        sites: [],
      },
      clientIdPattern: expect.any(String),
      clientIdHint: expect.any(String),
      updatedAt: null,
    });
    expect(new RegExp(response.body.clientIdPattern).test(clientIdA)).toBe(true);
  });

  it('builds redirectUri from PUBLIC_URL, never from the request', async () => {
    process.env.PUBLIC_URL = 'https://mail.example.test/';
    resetConfigForTests();
    try {
      const response = await call('GET', '/api/v1/admin/oauth-apps/oauth_provider_b', { cookie: admin.cookie, headers: { host: 'evil.test' } });
      expect(response.body.redirectUri).toBe('https://mail.example.test/api/v1/oauth/oauth_provider_b/callback');
      expect(response.body.scopesByCapability.sheets).toEqual([]);
    } finally {
      delete process.env.PUBLIC_URL;
      resetConfigForTests();
    }
  });

  it.each([['oauth_provider_c'], ['mail_provider_a'], ['constructor'], ['__proto__']])('answers 400 oauth.unsupported_provider for %s', async (provider) => {
    const response = await call('GET', `/api/v1/admin/oauth-apps/${provider}`, { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('oauth.unsupported_provider');
  });

  it('is for administrators only', async () => {
    const response = await call('GET', '/api/v1/admin/oauth-apps/oauth_provider_a', { cookie: member.cookie });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.forbidden');
  });
});

describe('PUT /api/v1/admin/oauth-apps/{provider}', () => {
  it('registers the application: secret encrypted, never returned, a 4-character hint, audited with the client id only', async () => {
    const response = await put(admin, 'oauth_provider_a', { clientId: clientIdA, clientSecret: secretA });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ provider: 'oauth_provider_a', configured: true, clientId: clientIdA, hasSecret: true, clientSecretHint: 'WXYZ', status: 'active' });
    expect(response.body.updatedAt).toEqual(expect.stringMatching(/Z$/));
    expect(JSON.stringify(response.body)).not.toContain(secretA);

    const row = await db().oAuthApp.findUniqueOrThrow({ where: { provider: 'oauth_provider_a' } });
    expect(row.clientSecretEnc).not.toContain(secretA);
    expect(open(row.clientSecretEnc, 'oauth-app:oauth_provider_a')).toBe(secretA);

    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'oauth_app.registered' } });
    expect(entry).toMatchObject({ actorMemberId: admin.id, targetId: 'oauth_provider_a', details: { provider: 'oauth_provider_a', clientId: clientIdA, status: 'active' } });
    expect(JSON.stringify(entry)).not.toContain(secretA);
    expect(JSON.stringify(entry)).not.toContain('WXYZ');

    const read = await call('GET', '/api/v1/admin/oauth-apps/oauth_provider_a', { cookie: admin.cookie });
    expect(read.body).toMatchObject({ configured: true, clientId: clientIdA, hasSecret: true, clientSecretHint: 'WXYZ' });
  });

  it('keeps the status unless given, and can disable the application', async () => {
    await put(admin, 'oauth_provider_b', { clientId: '00001111-aaaa-2222-bbbb-3333cccc4444', clientSecret: 'b-secret-value', status: 'disabled' });
    const kept = await put(admin, 'oauth_provider_b', { clientId: '00001111-aaaa-2222-bbbb-3333cccc4444', clientSecret: 'b-secret-value-2' });
    expect(kept.body.status).toBe('disabled');
  });

  it('answers 400 oauth.invalid_client_id when the id does not have the provider’s shape', async () => {
    const response = await put(admin, 'oauth_provider_b', { clientId: clientIdA, clientSecret: 'x' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('oauth.invalid_client_id');
    expect(await db().oAuthApp.count()).toBe(0);
  });

  it.each([
    ['a client id over 512 characters', { clientId: `1-${'a'.repeat(511)}`, clientSecret: 's' }],
    ['an empty secret', { clientId: clientIdA, clientSecret: '' }],
    ['a secret over 512 characters', { clientId: clientIdA, clientSecret: 's'.repeat(513) }],
    ['no secret', { clientId: clientIdA }],
    ['an unknown status', { clientId: clientIdA, clientSecret: 's', status: 'paused' }],
  ])('answers 400 request.bad_request for %s', async (_label, body) => {
    const response = await put(admin, 'oauth_provider_a', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('answers 400 oauth.unsupported_provider for another provider', async () => {
    const response = await put(admin, 'oauth_provider_z', { clientId: clientIdA, clientSecret: 's' });
    expect(response.body.error.code).toBe('oauth.unsupported_provider');
  });

  it('answers 409 oauth.encryption_disabled without an instance key', async () => {
    const saved = process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEY;
    resetConfigForTests();
    try {
      const response = await put(admin, 'oauth_provider_a', { clientId: clientIdA, clientSecret: secretA });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('oauth.encryption_disabled');
    } finally {
      process.env.ENCRYPTION_KEY = saved;
      resetConfigForTests();
    }
  });

  it('refuses members (403 auth.forbidden) and an admin key limited to admin:read (403 api_key.scope_missing)', async () => {
    expect((await put(member, 'oauth_provider_a', { clientId: clientIdA, clientSecret: secretA })).body.error.code).toBe('auth.forbidden');
    const { secret } = await createApiKeyFor(admin, ['admin:read']);
    const response = await call('PUT', '/api/v1/admin/oauth-apps/oauth_provider_a', { key: secret, body: { clientId: clientIdA, clientSecret: secretA } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('api_key.scope_missing');
  });
});
