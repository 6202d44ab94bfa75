import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { clientLocalHeader } from '../../core/http/client-headers';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, testPassword, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

function cookieOf(setCookie: string | null): string {
  return (setCookie ?? '').split(';')[0];
}

let member: TestMember;
beforeAll(async () => {
  member = await createMember({ email: 'ada@example.test', name: 'Ada' });
});

describe('POST /api/v1/auth/login', () => {
  it('answers 200 {member} and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const response = await call('POST', '/api/v1/auth/login', { body: { email: 'ADA@example.test', password: testPassword }, ip: '10.0.0.1' });
    expect(response.status).toBe(200);
    expect(response.body.member).toMatchObject({ id: member.id, email: 'ada@example.test', role: 'member', status: 'active' });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^session=[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure');
    const me = await call('GET', '/api/v1/auth/me', { cookie: cookieOf(setCookie) });
    expect(me.status).toBe(200);
    expect(me.body.member.id).toBe(member.id);
  });

  it('stores the session as a database row', async () => {
    const before = await db().session.count({ where: { memberId: member.id } });
    await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: testPassword }, ip: '10.0.0.2' });
    expect(await db().session.count({ where: { memberId: member.id } })).toBe(before + 1);
  });

  it('refuses a wrong password or an unknown email alike', async () => {
    const wrong = await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: 'nope-nope-nope' }, ip: '10.0.0.3' });
    const unknown = await call('POST', '/api/v1/auth/login', { body: { email: 'who@example.test', password: 'nope-nope-nope' }, ip: '10.0.0.3' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('auth.invalid_credentials');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a suspended member', async () => {
    const suspended = await createMember({ status: 'suspended' });
    const response = await call('POST', '/api/v1/auth/login', { body: { email: suspended.email, password: testPassword }, ip: '10.0.0.4' });
    expect(response.body.error.code).toBe('auth.invalid_credentials');
  });

  it('rate-limits sign-in per IP with 429 auth.too_many_attempts and Retry-After', async () => {
    const ip = '10.9.9.9';
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const response = await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: 'wrong-password' }, ip });
      expect(response.status).toBe(401);
    }
    const limited = await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: testPassword }, ip });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('auth.too_many_attempts');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.body.error.details.retryAfterSeconds).toBe(Number(limited.headers.get('retry-after')));
    const otherIp = await call('POST', '/api/v1/auth/login', { body: { email: member.email, password: testPassword }, ip: '10.9.9.8' });
    expect(otherIp.status).toBe(200);
  });

  it('answers 400 request.bad_request with the issues for a body that does not match', async () => {
    const response = await call('POST', '/api/v1/auth/login', { body: { email: 'x' }, ip: '10.0.0.5' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
    expect(response.body.error.details.issues.map((issue: { path: string }) => issue.path)).toContain('password');
  });

  describe('in production', () => {
    const original = process.env.NODE_ENV;
    afterEach(() => {
      (process.env as Record<string, string | undefined>).NODE_ENV = original;
      resetConfigForTests();
    });

    it('refuses a sign-in over plain HTTP with auth.https_required, and sets Secure over HTTPS', async () => {
      (process.env as Record<string, string | undefined>).NODE_ENV = 'production';
      resetConfigForTests();
      const plain = await call('POST', '/api/v1/auth/login', {
        body: { email: member.email, password: testPassword },
        ip: '10.0.0.6',
        headers: { host: 'mail.example.test' },
      });
      expect(plain.status).toBe(403);
      expect(plain.body.error.code).toBe('auth.https_required');
      // A remote client naming us by a loopback host is still remote.
      const spoofedHost = await call('POST', '/api/v1/auth/login', {
        body: { email: member.email, password: testPassword },
        ip: '10.0.0.6',
        headers: { host: 'localhost:3000' },
      });
      expect(spoofedHost.body.error.code).toBe('auth.https_required');
      // A browser on the machine itself at http://localhost is a secure context: allowed (the web server
      // stamps that from the socket peer, see server/http/client-origin.ts).
      const local = await call('POST', '/api/v1/auth/login', {
        body: { email: member.email, password: testPassword },
        ip: '127.0.0.1',
        headers: { host: 'localhost:3000', [clientLocalHeader]: '1' },
      });
      expect(local.status).toBe(200);
      const secure = await call('POST', '/api/v1/auth/login', {
        body: { email: member.email, password: testPassword },
        ip: '10.0.0.6',
        headers: { 'x-mailflow-client-proto': 'https' },
      });
      expect(secure.status).toBe(200);
      expect(secure.headers.get('set-cookie')).toContain('Secure');
    });
  });
});

describe('GET /api/v1/auth/me', () => {
  it('answers 401 auth.unauthenticated without a credential', async () => {
    const response = await call('GET', '/api/v1/auth/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: { code: 'auth.unauthenticated', message: expect.any(String), details: {} } });
  });

  it('accepts an API key of any scope and answers its owner', async () => {
    const { secret } = await createApiKeyFor(member, ['contacts:read']);
    const response = await call('GET', '/api/v1/auth/me', { key: secret });
    expect(response.status).toBe(200);
    expect(response.body.member.email).toBe(member.email);
  });

  it('lets the Bearer key alone decide, even beside a valid cookie', async () => {
    const response = await call('GET', '/api/v1/auth/me', { cookie: member.cookie, key: 'mk_not-a-real-key' });
    expect(response.status).toBe(401);
    const malformed = await call('GET', '/api/v1/auth/me', { cookie: member.cookie, headers: { authorization: 'Basic abc' } });
    expect(malformed.status).toBe(401);
  });
});

describe('POST /api/v1/auth/logout', () => {
  it('ends the session: the cookie no longer works', async () => {
    const other = await createMember();
    const response = await call('POST', '/api/v1/auth/logout', { cookie: other.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await call('GET', '/api/v1/auth/me', { cookie: other.cookie })).status).toBe(401);
  });

  it('refuses API keys with 403 api_key.session_required', async () => {
    const { secret } = await createApiKeyFor(member, ['admin:write']);
    const response = await call('POST', '/api/v1/auth/logout', { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('api_key.session_required');
  });
});

describe('POST /api/v1/me/password', () => {
  it('refuses a wrong current password', async () => {
    const response = await call('POST', '/api/v1/me/password', {
      cookie: member.cookie,
      body: { currentPassword: 'not-the-password', newPassword: 'a-brand-new-password' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('auth.wrong_password');
  });

  it('refuses a new password shorter than 10 characters', async () => {
    const response = await call('POST', '/api/v1/me/password', { cookie: member.cookie, body: { currentPassword: testPassword, newPassword: 'short' } });
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('changes the password and revokes the member’s other sessions only', async () => {
    const changer = await createMember();
    const otherLogin = await call('POST', '/api/v1/auth/login', { body: { email: changer.email, password: testPassword }, ip: '10.0.1.1' });
    const otherCookie = cookieOf(otherLogin.headers.get('set-cookie'));
    const response = await call('POST', '/api/v1/me/password', {
      cookie: changer.cookie,
      body: { currentPassword: testPassword, newPassword: 'a-brand-new-password' },
    });
    expect(response.status).toBe(200);
    expect(response.body.sessionsRevoked).toBe(1);
    expect((await call('GET', '/api/v1/auth/me', { cookie: changer.cookie })).status).toBe(200);
    expect((await call('GET', '/api/v1/auth/me', { cookie: otherCookie })).status).toBe(401);
    const relogin = await call('POST', '/api/v1/auth/login', { body: { email: changer.email, password: 'a-brand-new-password' }, ip: '10.0.1.2' });
    expect(relogin.status).toBe(200);
  });

  it('refuses API keys with 403 api_key.session_required', async () => {
    const { secret } = await createApiKeyFor(member, ['admin:write']);
    const response = await call('POST', '/api/v1/me/password', { key: secret, body: { currentPassword: testPassword, newPassword: 'whatever-long-enough' } });
    expect(response.body.error.code).toBe('api_key.session_required');
  });
});
