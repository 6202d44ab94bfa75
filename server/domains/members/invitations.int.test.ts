import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publicUrl, resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
});

async function invite(email: string, role?: 'member' | 'admin') {
  return call('POST', '/api/v1/admin/members/invitations', { cookie: admin.cookie, body: { email, ...(role ? { role } : {}) }, headers: { host: 'team.example.test' } });
}

describe('POST /api/v1/admin/members/invitations', () => {
  it('answers 201 {invitation, acceptUrl, token}; role defaults to member; only a hash is stored', async () => {
    const response = await invite('New.Person@Example.test');
    expect(response.status).toBe(201);
    const { invitation, acceptUrl, token } = response.body;
    expect(invitation).toEqual({
      id: expect.any(String),
      email: 'new.person@example.test',
      role: 'member',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      invitedBy: admin.id,
      expired: false,
    });
    expect(acceptUrl).toBe(`${publicUrl()}/invitations/accept#token=${token}`);
    const row = await db().invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('refuses an address of a member or of a pending invitation with 409 governance.email_taken', async () => {
    await invite('twice@example.test');
    expect((await invite('twice@example.test')).body.error.code).toBe('governance.email_taken');
    expect((await invite(admin.email)).body.error.code).toBe('governance.email_taken');
  });

  it('answers 400 for an invalid email or role', async () => {
    expect((await invite('not-an-email')).status).toBe(400);
    expect((await call('POST', '/api/v1/admin/members/invitations', { cookie: admin.cookie, body: { email: 'a@b.test', role: 'owner' } })).status).toBe(400);
  });
});

describe('GET /api/v1/admin/members/invitations', () => {
  it('lists pending invitations, expired ones flagged, accepted and revoked ones gone', async () => {
    const pending = (await invite('pending@example.test')).body.invitation;
    const expired = (await invite('expired@example.test')).body.invitation;
    await db().invitation.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = (await invite('revoked@example.test')).body.invitation;
    await call('DELETE', `/api/v1/admin/members/invitations/${revoked.id}`, { cookie: admin.cookie });
    const response = await call('GET', '/api/v1/admin/members/invitations', { cookie: admin.cookie });
    const byId = new Map(response.body.invitations.map((i: { id: string }) => [i.id, i]));
    expect(byId.get(pending.id)).toMatchObject({ expired: false });
    expect(byId.get(expired.id)).toMatchObject({ expired: true });
    expect(byId.has(revoked.id)).toBe(false);
  });
});

describe('POST /api/v1/auth/invitations/accept', () => {
  it('creates the member with the invited role, signs them in, and the token works once', async () => {
    const { token } = (await invite('joiner@example.test', 'admin')).body;
    const response = await call('POST', '/api/v1/auth/invitations/accept', { body: { token, name: 'Joiner', password: 'joiner-password-1' } });
    expect(response.status).toBe(201);
    expect(response.body.member).toMatchObject({ email: 'joiner@example.test', name: 'Joiner', role: 'admin', status: 'active' });
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0];
    expect((await call('GET', '/api/v1/auth/me', { cookie })).body.member.email).toBe('joiner@example.test');
    const again = await call('POST', '/api/v1/auth/invitations/accept', { body: { token, name: 'Again', password: 'joiner-password-1' } });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('request.not_found');
    const listed = await call('GET', '/api/v1/admin/members/invitations', { cookie: admin.cookie });
    expect(listed.body.invitations.map((i: { email: string }) => i.email)).not.toContain('joiner@example.test');
  });

  it('answers 404 request.not_found for an expired, a revoked or an unknown token', async () => {
    const expired = (await invite('late@example.test')).body;
    await db().invitation.update({ where: { id: expired.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const revoked = (await invite('gone@example.test')).body;
    await call('DELETE', `/api/v1/admin/members/invitations/${revoked.invitation.id}`, { cookie: admin.cookie });
    for (const token of [expired.token, revoked.token, 'no-such-token']) {
      const response = await call('POST', '/api/v1/auth/invitations/accept', { body: { token, name: 'X', password: 'long-enough-password' } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('request.not_found');
    }
  });

  it('answers 400 for a password under 10 characters', async () => {
    const { token } = (await invite('weak@example.test')).body;
    expect((await call('POST', '/api/v1/auth/invitations/accept', { body: { token, name: 'W', password: 'short' } })).status).toBe(400);
  });
});

describe('DELETE /api/v1/admin/members/invitations/{id}', () => {
  it('revokes a pending invitation and audits it; a second revoke is 404', async () => {
    const { invitation } = (await invite('revoke-me@example.test')).body;
    const response = await call('DELETE', `/api/v1/admin/members/invitations/${invitation.id}`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(await db().auditEntry.count({ where: { action: 'invitation.revoked', targetId: invitation.id } })).toBe(1);
    const again = await call('DELETE', `/api/v1/admin/members/invitations/${invitation.id}`, { cookie: admin.cookie });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('governance.not_found');
  });
});

describe('hardening 12: invitation links come from configuration, never from request headers', () => {
  const saved = { PUBLIC_URL: process.env.PUBLIC_URL, HOST: process.env.HOST, PORT: process.env.PORT };
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfigForTests();
  });

  it('ignores Host and X-Forwarded-Host: without PUBLIC_URL the link names the configured listen address', async () => {
    delete process.env.PUBLIC_URL;
    process.env.HOST = '0.0.0.0';
    process.env.PORT = '3456';
    resetConfigForTests();
    const response = await call('POST', '/api/v1/admin/members/invitations', {
      cookie: admin.cookie,
      body: { email: 'host-header@example.test' },
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example', 'x-mailflow-client-proto': 'https' },
    });
    expect(response.status).toBe(201);
    expect(response.body.acceptUrl).toBe(`http://localhost:3456/invitations/accept#token=${response.body.token}`);
  });

  it('uses PUBLIC_URL when set', async () => {
    process.env.PUBLIC_URL = 'https://mail.example.test/';
    resetConfigForTests();
    const response = await call('POST', '/api/v1/admin/members/invitations', {
      cookie: admin.cookie,
      body: { email: 'public-url@example.test' },
      headers: { host: 'attacker.example' },
    });
    expect(response.body.acceptUrl).toBe(`https://mail.example.test/invitations/accept#token=${response.body.token}`);
  });
});

describe('hardening 12: accepting an invitation follows the sign-in transport rule', () => {
  const original = process.env.NODE_ENV;
  afterEach(() => {
    (process.env as Record<string, string | undefined>).NODE_ENV = original;
    resetConfigForTests();
  });

  it('refuses plain HTTP in production with 403 auth.https_required, before using the token', async () => {
    const { token } = (await invite('over-http@example.test')).body;
    (process.env as Record<string, string | undefined>).NODE_ENV = 'production';
    resetConfigForTests();
    const body = { token, name: 'Plain', password: 'long-enough-password' };
    const plain = await call('POST', '/api/v1/auth/invitations/accept', { body, ip: '203.0.113.20', headers: { host: 'localhost:3000' } });
    expect(plain.status).toBe(403);
    expect(plain.body.error.code).toBe('auth.https_required');
    expect(await db().member.count({ where: { email: 'over-http@example.test' } })).toBe(0);
    const secure = await call('POST', '/api/v1/auth/invitations/accept', { body, ip: '203.0.113.20', headers: { 'x-mailflow-client-proto': 'https' } });
    expect(secure.status).toBe(201);
    expect(secure.headers.get('set-cookie')).toContain('Secure');
  });
});
