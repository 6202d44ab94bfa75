/**
 * Issue 19 §7: the first sign-in with a generated password asks to change it. The first
 * administrator created without ADMIN_PASSWORD carries the flag, `auth/me` says so, and a password
 * change clears it; a password the person chose (ADMIN_PASSWORD, an invitation) never asks.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, testPassword } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { ensureFirstAdmin } from '../members/bootstrap-admin';

await useTestDatabase();

beforeEach(async () => {
  await db().auditEntry.deleteMany();
  await db().member.deleteMany();
});

async function signIn(email: string, password: string, ip: string): Promise<string> {
  const response = await call('POST', '/api/v1/auth/login', { body: { email, password }, ip });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0];
}

describe('a generated password must be changed', () => {
  it('auth/me says mustChangePassword for the first administrator with a generated password, until the password is changed', async () => {
    const admin = await ensureFirstAdmin({});
    if (!admin.created || !admin.generatedPassword) throw new Error('expected a generated password');
    const cookie = await signIn(admin.email, admin.generatedPassword, '10.1.0.1');

    const before = await call('GET', '/api/v1/auth/me', { cookie });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ member: { email: 'admin@localhost', role: 'admin' }, mustChangePassword: true });

    const changed = await call('POST', '/api/v1/me/password', {
      cookie,
      body: { currentPassword: admin.generatedPassword, newPassword: 'a password I chose myself' },
    });
    expect(changed.status).toBe(200);

    const after = await call('GET', '/api/v1/auth/me', { cookie });
    expect(after.body.mustChangePassword).toBe(false);
  });

  it('a wrong current password leaves the flag set', async () => {
    const admin = await ensureFirstAdmin({});
    if (!admin.created || !admin.generatedPassword) throw new Error('expected a generated password');
    const cookie = await signIn(admin.email, admin.generatedPassword, '10.1.0.2');
    const refused = await call('POST', '/api/v1/me/password', { cookie, body: { currentPassword: 'not the password', newPassword: 'another long password' } });
    expect(refused.body.error.code).toBe('auth.wrong_password');
    expect((await call('GET', '/api/v1/auth/me', { cookie })).body.mustChangePassword).toBe(true);
  });

  it('an administrator whose ADMIN_PASSWORD was given is not asked to change it', async () => {
    const admin = await ensureFirstAdmin({ ADMIN_PASSWORD: 'chosen by the operator' });
    if (!admin.created) throw new Error('expected a new administrator');
    const cookie = await signIn(admin.email, 'chosen by the operator', '10.1.0.3');
    expect((await call('GET', '/api/v1/auth/me', { cookie })).body.mustChangePassword).toBe(false);
  });

  it('a member who chose their password is not asked to change it', async () => {
    const member = await createMember();
    const cookie = await signIn(member.email, testPassword, '10.1.0.4');
    expect((await call('GET', '/api/v1/auth/me', { cookie })).body).toMatchObject({ member: { id: member.id }, mustChangePassword: false });
  });
});
