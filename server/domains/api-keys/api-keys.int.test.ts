import { beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../core/auth/tokens';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let owner: TestMember;
let admin: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  admin = await createMember({ role: 'admin', name: 'Admin' });
});

describe('POST /api/v1/api-keys', () => {
  it('answers 201 {key, secret}; the secret starts with mk_ and only its hash is stored', async () => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: owner.cookie, body: { name: 'CI', scopes: ['tables:read', 'tables:write'] } });
    expect(response.status).toBe(201);
    const { key, secret } = response.body;
    expect(secret).toMatch(/^mk_/);
    expect(key).toEqual({
      id: expect.any(String),
      name: 'CI',
      prefix: secret.slice(0, 8),
      scopes: ['tables:read', 'tables:write'],
      createdAt: expect.any(String),
      expiresAt: null,
      revokedAt: null,
      lastUsedAt: null,
    });
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.secretHash).toBe(tokenHash(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('sets expiresAt from expiresInDays', async () => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: owner.cookie, body: { name: 'short', scopes: ['review:read'], expiresInDays: 2 } });
    const days = (Date.parse(response.body.key.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThanOrEqual(2);
  });

  it.each([
    ['an unknown scope', { name: 'k', scopes: ['tables:admin'] }],
    ['no scope', { name: 'k', scopes: [] }],
    ['21 scopes', { name: 'k', scopes: Array.from({ length: 21 }, () => 'tables:read') }],
    ['an empty name', { name: '', scopes: ['tables:read'] }],
    ['a 121-character name', { name: 'x'.repeat(121), scopes: ['tables:read'] }],
    ['expiry of 0 days', { name: 'k', scopes: ['tables:read'], expiresInDays: 0 }],
    ['expiry of 731 days', { name: 'k', scopes: ['tables:read'], expiresInDays: 731 }],
  ])('answers 400 request.bad_request for %s', async (_name, body) => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: owner.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('cannot be called with a key (a key cannot create keys)', async () => {
    const { secret } = await createApiKeyFor(owner, ['admin:write']);
    const response = await call('POST', '/api/v1/api-keys', { key: secret, body: { name: 'k', scopes: ['tables:read'] } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('api_key.session_required');
  });

  it('writes api_key.created to the audit log, without the secret', async () => {
    const response = await call('POST', '/api/v1/api-keys', { cookie: owner.cookie, body: { name: 'audited', scopes: ['contacts:read'] } });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'api_key.created', targetId: response.body.key.id } });
    expect(entry.actorMemberId).toBe(owner.id);
    expect(JSON.stringify(entry)).not.toContain(response.body.secret);
  });
});

describe('GET /api/v1/api-keys', () => {
  it('lists only the member’s own keys', async () => {
    const mine = await createApiKeyFor(owner, ['tables:read']);
    const theirs = await createApiKeyFor(admin, ['tables:read']);
    const response = await call('GET', '/api/v1/api-keys', { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const ids = response.body.keys.map((key: { id: string }) => key.id);
    expect(ids).toContain(mine.key.id);
    expect(ids).not.toContain(theirs.key.id);
  });

  it('refuses keys with api_key.session_required', async () => {
    const { secret } = await createApiKeyFor(owner, ['admin:read']);
    expect((await call('GET', '/api/v1/api-keys', { key: secret })).body.error.code).toBe('api_key.session_required');
  });
});

describe('POST /api/v1/api-keys/{id}/revoke', () => {
  it('revokes at once: the key gets 401; revoking twice keeps the first date and audits once', async () => {
    const { key, secret } = await createApiKeyFor(owner, ['tables:read']);
    expect((await call('GET', '/api/v1/auth/me', { key: secret })).status).toBe(200);
    const first = await call('POST', `/api/v1/api-keys/${key.id}/revoke`, { cookie: owner.cookie });
    expect(first.status).toBe(200);
    expect(first.body.key.revokedAt).not.toBeNull();
    const refused = await call('GET', '/api/v1/auth/me', { key: secret });
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('auth.unauthenticated');
    const second = await call('POST', `/api/v1/api-keys/${key.id}/revoke`, { cookie: owner.cookie });
    expect(second.body.key.revokedAt).toBe(first.body.key.revokedAt);
    expect(await db().auditEntry.count({ where: { action: 'api_key.revoked', targetId: key.id } })).toBe(1);
  });

  it('answers 404 for another member’s key, never 403', async () => {
    const { key } = await createApiKeyFor(admin, ['tables:read']);
    const response = await call('POST', `/api/v1/api-keys/${key.id}/revoke`, { cookie: owner.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('api_key.not_found');
  });

  it('answers 400 for an id that is not a uuid', async () => {
    expect((await call('POST', '/api/v1/api-keys/nope/revoke', { cookie: owner.cookie })).status).toBe(400);
  });
});

describe('key lifecycle', () => {
  it('refuses an expired key like an unknown one, and still lists it', async () => {
    const { key, secret } = await createApiKeyFor(owner, ['tables:read'], { expiresInDays: 1 });
    await db().apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call('GET', '/api/v1/auth/me', { key: secret });
    const unknown = await call('GET', '/api/v1/auth/me', { key: 'mk_unknown' });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(unknown.body);
    const list = await call('GET', '/api/v1/api-keys', { cookie: owner.cookie });
    expect(list.body.keys.map((k: { id: string }) => k.id)).toContain(key.id);
  });

  it('records lastUsedAt at minute precision', async () => {
    const { key, secret } = await createApiKeyFor(owner, ['tables:read']);
    await call('GET', '/api/v1/auth/me', { key: secret });
    const row = await db().apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.lastUsedAt).not.toBeNull();
    expect(row.lastUsedAt!.getUTCSeconds()).toBe(0);
    expect(row.lastUsedAt!.getUTCMilliseconds()).toBe(0);
    expect(Date.now() - row.lastUsedAt!.getTime()).toBeLessThan(61_000);
  });

  it('refuses the key of a suspended member', async () => {
    const member = await createMember();
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    await db().member.update({ where: { id: member.id }, data: { status: 'suspended' } });
    expect((await call('GET', '/api/v1/auth/me', { key: secret })).status).toBe(401);
  });
});

describe('admin key routes', () => {
  it('GET /api/v1/admin/api-keys lists every key with its owner', async () => {
    const { key } = await createApiKeyFor(owner, ['tables:read']);
    const response = await call('GET', '/api/v1/admin/api-keys', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const listed = response.body.keys.find((k: { id: string }) => k.id === key.id);
    expect(listed.owner).toEqual({ id: owner.id, email: owner.email, name: 'Owner' });
  });

  it('refuses a non-admin with 403 auth.forbidden, even with an admin:read key', async () => {
    expect((await call('GET', '/api/v1/admin/api-keys', { cookie: owner.cookie })).body.error.code).toBe('auth.forbidden');
    const { secret } = await createApiKeyFor(owner, ['admin:read']);
    const response = await call('GET', '/api/v1/admin/api-keys', { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('auth.forbidden');
  });

  it('an admin’s key with tables:read cannot call an admin write route (scope_missing, details.required)', async () => {
    const { key: target } = await createApiKeyFor(owner, ['tables:read']);
    const { secret } = await createApiKeyFor(admin, ['tables:read']);
    const response = await call('POST', `/api/v1/admin/api-keys/${target.id}/revoke`, { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'admin:write' } });
  });

  it('an admin:read key reads but cannot revoke; admin:write revokes any member’s key', async () => {
    const { key: target } = await createApiKeyFor(owner, ['tables:read']);
    const reader = await createApiKeyFor(admin, ['admin:read']);
    expect((await call('GET', '/api/v1/admin/api-keys', { key: reader.secret })).status).toBe(200);
    expect((await call('POST', `/api/v1/admin/api-keys/${target.id}/revoke`, { key: reader.secret })).body.error.details.required).toBe('admin:write');
    const writer = await createApiKeyFor(admin, ['admin:write']);
    const response = await call('POST', `/api/v1/admin/api-keys/${target.id}/revoke`, { key: writer.secret });
    expect(response.status).toBe(200);
    expect(response.body.key).toMatchObject({ id: target.id, owner: { id: owner.id } });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'api_key.revoked', targetId: target.id } });
    expect(entry.actorMemberId).toBe(admin.id);
    expect(entry.details).toMatchObject({ apiKeyId: writer.key.id });
  });

  it('answers 404 api_key.not_found for an unknown key', async () => {
    const response = await call('POST', '/api/v1/admin/api-keys/00000000-0000-4000-8000-000000000000/revoke', { cookie: admin.cookie });
    expect(response.status).toBe(404);
  });
});
