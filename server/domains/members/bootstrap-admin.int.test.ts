import { beforeEach, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../core/auth/password';
import { db } from '../../core/db';
import { useTestDatabase } from '../../testing/test-database';
import { ensureFirstAdmin } from './bootstrap-admin';

await useTestDatabase();

beforeEach(async () => {
  await db().auditEntry.deleteMany();
  await db().member.deleteMany();
});

describe('ensureFirstAdmin', () => {
  it('creates admin@localhost with a generated password when nothing is configured', async () => {
    const result = await ensureFirstAdmin({});
    expect(result).toMatchObject({ created: true, email: 'admin@localhost' });
    if (!result.created) throw new Error('unreachable');
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const member = await db().member.findUniqueOrThrow({ where: { email: 'admin@localhost' } });
    expect(member).toMatchObject({ name: 'Administrator', role: 'admin', status: 'active' });
    expect(member.passwordHash).not.toContain(result.generatedPassword!);
    expect(await verifyPassword(result.generatedPassword!, member.passwordHash)).toBe(true);
    expect(await db().auditEntry.count({ where: { action: 'member.created', targetId: member.id, actorKind: 'system' } })).toBe(1);
  });

  it('uses ADMIN_EMAIL (lower-cased) and ADMIN_PASSWORD, and reveals no password', async () => {
    const result = await ensureFirstAdmin({ ADMIN_EMAIL: '  Boss@Example.TEST ', ADMIN_PASSWORD: 'a long enough secret' });
    expect(result).toMatchObject({ created: true, email: 'boss@example.test', generatedPassword: null });
    const member = await db().member.findUniqueOrThrow({ where: { email: 'boss@example.test' } });
    expect(await verifyPassword('a long enough secret', member.passwordHash)).toBe(true);
  });

  it('does nothing once any member exists', async () => {
    await ensureFirstAdmin({});
    expect(await ensureFirstAdmin({ ADMIN_EMAIL: 'other@example.test' })).toEqual({ created: false });
    expect(await db().member.count()).toBe(1);
  });

  it('creates exactly one administrator when several starts race', async () => {
    const results = await Promise.all([ensureFirstAdmin({}), ensureFirstAdmin({}), ensureFirstAdmin({})]);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(await db().member.count()).toBe(1);
  });

  it('refuses a bad ADMIN_PASSWORD or ADMIN_EMAIL and creates nobody', async () => {
    await expect(ensureFirstAdmin({ ADMIN_PASSWORD: 'short' })).rejects.toThrow(/ADMIN_PASSWORD must be 10 to 200/);
    await expect(ensureFirstAdmin({ ADMIN_EMAIL: 'not an email' })).rejects.toThrow(/ADMIN_EMAIL/);
    expect(await db().member.count()).toBe(0);
  });
});
