import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin', name: 'Root' });
});

describe('GET /api/v1/admin/members', () => {
  it('lists members with the spec’s fields', async () => {
    const response = await call('GET', '/api/v1/admin/members', { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body.members.find((m: { id: string }) => m.id === admin.id)).toEqual({
      id: admin.id,
      email: admin.email,
      name: 'Root',
      role: 'admin',
      status: 'active',
      mailboxCount: 0,
      publishedWorkflowCount: 0,
      createdAt: expect.stringMatching(/Z$/),
    });
  });

  it('is refused to members (403 auth.forbidden) and to keys without admin:read', async () => {
    const member = await createMember();
    expect((await call('GET', '/api/v1/admin/members', { cookie: member.cookie })).body.error.code).toBe('auth.forbidden');
    const { secret } = await createApiKeyFor(admin, ['tables:read']);
    expect((await call('GET', '/api/v1/admin/members', { key: secret })).body.error).toMatchObject({
      code: 'api_key.scope_missing',
      details: { required: 'admin:read' },
    });
  });
});

describe('PATCH /api/v1/admin/members/{id}', () => {
  it('changes the role and audits it', async () => {
    const member = await createMember();
    const response = await call('PATCH', `/api/v1/admin/members/${member.id}`, { cookie: admin.cookie, body: { role: 'admin' } });
    expect(response.status).toBe(200);
    expect(response.body.member.role).toBe('admin');
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'member.role_changed', targetId: member.id } });
    expect(entry.details).toEqual({ from: 'member', to: 'admin' });
    expect(entry.actorMemberId).toBe(admin.id);
  });

  it('refuses demoting the last active admin with 409 governance.last_admin', async () => {
    await db().member.updateMany({ where: { role: 'admin', id: { not: admin.id } }, data: { role: 'member' } });
    const response = await call('PATCH', `/api/v1/admin/members/${admin.id}`, { cookie: admin.cookie, body: { role: 'member' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('governance.last_admin');
  });

  it('lets two admins not demote each other at the same time', async () => {
    const second = await createMember({ role: 'admin' });
    await db().member.updateMany({ where: { role: 'admin', id: { notIn: [admin.id, second.id] } }, data: { role: 'member' } });
    const [a, b] = await Promise.all([
      call('PATCH', `/api/v1/admin/members/${second.id}`, { cookie: admin.cookie, body: { role: 'member' } }),
      call('PATCH', `/api/v1/admin/members/${admin.id}`, { cookie: second.cookie, body: { role: 'member' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect(await db().member.count({ where: { role: 'admin', status: 'active' } })).toBe(1);
    await db().member.update({ where: { id: admin.id }, data: { role: 'admin' } });
  });

  it.each([
    ['an unknown role', { role: 'owner' }],
    ['no role', {}],
  ])('answers 400 for %s', async (_name, body) => {
    const member = await createMember();
    const response = await call('PATCH', `/api/v1/admin/members/${member.id}`, { cookie: admin.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('answers 404 governance.not_found for an unknown member', async () => {
    const response = await call('PATCH', '/api/v1/admin/members/00000000-0000-4000-8000-000000000000', { cookie: admin.cookie, body: { role: 'admin' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('governance.not_found');
  });
});

describe('deactivate and reactivate', () => {
  it('suspends the member, revokes their sessions and refuses their keys; effects are counted', async () => {
    const member = await createMember();
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const response = await call('POST', `/api/v1/admin/members/${member.id}/deactivate`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      member: expect.objectContaining({ id: member.id, status: 'suspended' }),
      effects: { sessionsRevoked: 1, mailboxesPaused: 0, workflowsUnpublished: 0 },
    });
    expect((await call('GET', '/api/v1/auth/me', { cookie: member.cookie })).status).toBe(401);
    expect((await call('GET', '/api/v1/auth/me', { key: secret })).status).toBe(401);
    expect(await db().auditEntry.count({ where: { action: 'member.deactivated', targetId: member.id } })).toBe(1);

    const reactivated = await call('POST', `/api/v1/admin/members/${member.id}/reactivate`, { cookie: admin.cookie });
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.member.status).toBe('active');
    expect((await call('GET', '/api/v1/auth/me', { key: secret })).status).toBe(200);
    expect((await call('GET', '/api/v1/auth/me', { cookie: member.cookie })).status).toBe(401);
  });

  it('refuses deactivating oneself with 409 governance.self_target', async () => {
    const response = await call('POST', `/api/v1/admin/members/${admin.id}/deactivate`, { cookie: admin.cookie });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('governance.self_target');
  });

  it('answers 404 governance.not_found for unknown members', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('POST', `/api/v1/admin/members/${unknown}/deactivate`, { cookie: admin.cookie })).body.error.code).toBe('governance.not_found');
    expect((await call('POST', `/api/v1/admin/members/${unknown}/reactivate`, { cookie: admin.cookie })).body.error.code).toBe('governance.not_found');
  });
});
