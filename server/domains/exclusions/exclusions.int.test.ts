import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let admin: TestMember;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  admin = await createMember({ role: 'admin' });
});

describe('member exclusions /api/v1/exclusions', () => {
  it('creates (201, normalised lower-case), lists the member’s own newest first, deletes answering the entry', async () => {
    const own = await createMember();
    const created = await call('POST', '/api/v1/exclusions', { cookie: own.cookie, body: { kind: 'address', value: '  Promo@Shop.TEST ', note: 'noisy' } });
    expect(created.status).toBe(201);
    expect(created.body.exclusion).toMatchObject({ kind: 'address', value: 'promo@shop.test', note: 'noisy' });
    // Entries of one millisecond are ordered by id, not by insertion: keep the expected order unambiguous.
    await sleep(3);
    const domain = await call('POST', '/api/v1/exclusions', { cookie: own.cookie, body: { kind: 'domain', value: '@Ads.Example.COM' } });
    expect(domain.body.exclusion).toMatchObject({ kind: 'domain', value: 'ads.example.com', note: '' });
    // Another member's list is separate.
    await call('POST', '/api/v1/exclusions', { cookie: other.cookie, body: { kind: 'address', value: 'promo@shop.test' } });

    const list = await call('GET', '/api/v1/exclusions', { cookie: own.cookie });
    expect(list.status).toBe(200);
    expect(list.body.exclusions.map((entry: { value: string }) => entry.value)).toEqual(['ads.example.com', 'promo@shop.test']);

    const removed = await call('DELETE', `/api/v1/exclusions/${created.body.exclusion.id}`, { cookie: own.cookie });
    expect(removed.status).toBe(200);
    expect(removed.body.exclusion).toEqual(created.body.exclusion);
    expect((await call('GET', '/api/v1/exclusions', { cookie: own.cookie })).body.exclusions).toHaveLength(1);
  });

  it('409 exclusion.duplicate for the same kind and value, whatever the case', async () => {
    const own = await createMember();
    await call('POST', '/api/v1/exclusions', { cookie: own.cookie, body: { kind: 'domain', value: 'dup.test' } });
    const again = await call('POST', '/api/v1/exclusions', { cookie: own.cookie, body: { kind: 'domain', value: 'DUP.test' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('exclusion.duplicate');
  });

  it('400 for an invalid value or body', async () => {
    const bodies = [
      { kind: 'address', value: 'not-an-address' },
      { kind: 'domain', value: 'no_underscores.test' },
      { kind: 'domain', value: 'localhost' },
      { kind: 'domain', value: 'a@b.test' },
      { kind: 'domain', value: `${'a'.repeat(64)}.test` },
      { kind: 'sender', value: 'a@b.test' },
      { kind: 'address', value: '' },
      { kind: 'address', value: 'a@b.test', note: 'x'.repeat(501) },
      { kind: 'address', value: 'a@b.test', extra: true },
      { kind: 'address' },
    ];
    for (const body of bodies) {
      const response = await call('POST', '/api/v1/exclusions', { cookie: member.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('404 exclusion.not_found for another member’s entry or the organisation’s', async () => {
    const theirs = await call('POST', '/api/v1/exclusions', { cookie: other.cookie, body: { kind: 'address', value: 'x@theirs.test' } });
    const org = await call('POST', '/api/v1/admin/exclusions', { cookie: admin.cookie, body: { kind: 'address', value: 'x@org-only.test' } });
    for (const id of [theirs.body.exclusion.id, org.body.exclusion.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await call('DELETE', `/api/v1/exclusions/${id}`, { cookie: member.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('exclusion.not_found');
    }
    expect(await db().senderExclusion.count({ where: { id: theirs.body.exclusion.id } })).toBe(1);
  });

  it('scopes: messages:read lists, messages:write changes', async () => {
    const { secret: reader } = await createApiKeyFor(member, ['messages:read']);
    expect((await call('GET', '/api/v1/exclusions', { key: reader })).status).toBe(200);
    const refused = await call('POST', '/api/v1/exclusions', { key: reader, body: { kind: 'address', value: 'k@key.test' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.required).toBe('messages:write');
    const { secret: writer } = await createApiKeyFor(member, ['messages:write']);
    expect((await call('POST', '/api/v1/exclusions', { key: writer, body: { kind: 'address', value: 'k@key.test' } })).status).toBe(201);
  });
});

describe('organisation exclusions /api/v1/admin/exclusions', () => {
  it('administrators create, list and delete the organisation’s list, audited; members’ entries stay apart', async () => {
    const created = await call('POST', '/api/v1/admin/exclusions', { cookie: admin.cookie, body: { kind: 'domain', value: 'Everyone-Hates.test', note: 'policy' } });
    expect(created.status).toBe(201);
    expect(created.body.exclusion).toMatchObject({ kind: 'domain', value: 'everyone-hates.test', note: 'policy' });
    expect(await db().senderExclusion.findUniqueOrThrow({ where: { id: created.body.exclusion.id } })).toMatchObject({ memberId: null, createdBy: admin.id });
    const duplicate = await call('POST', '/api/v1/admin/exclusions', { cookie: admin.cookie, body: { kind: 'domain', value: 'everyone-hates.test' } });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe('exclusion.duplicate');

    const list = await call('GET', '/api/v1/admin/exclusions', { cookie: admin.cookie });
    expect(list.body.exclusions.map((entry: { id: string }) => entry.id)).toContain(created.body.exclusion.id);
    // The admin's own member list does not hold it.
    expect((await call('GET', '/api/v1/exclusions', { cookie: admin.cookie })).body.exclusions.map((entry: { id: string }) => entry.id)).not.toContain(created.body.exclusion.id);

    const mine = await call('POST', '/api/v1/exclusions', { cookie: member.cookie, body: { kind: 'address', value: 'mine@member.test' } });
    expect((await call('DELETE', `/api/v1/admin/exclusions/${mine.body.exclusion.id}`, { cookie: admin.cookie })).body.error.code).toBe('exclusion.not_found');

    const removed = await call('DELETE', `/api/v1/admin/exclusions/${created.body.exclusion.id}`, { cookie: admin.cookie });
    expect(removed.status).toBe(200);
    const audit = await db().auditEntry.findMany({ where: { targetId: created.body.exclusion.id }, orderBy: { at: 'asc' } });
    expect(audit.map((entry) => [entry.action, entry.targetKind, entry.actorMemberId])).toEqual([
      ['exclusion.created', 'sender_exclusion', admin.id],
      ['exclusion.deleted', 'sender_exclusion', admin.id],
    ]);
  });

  it('concurrent creates of the same organisation entry give one row and one 409', async () => {
    const body = { kind: 'address', value: 'race@org.test' };
    const answers = await Promise.all([1, 2, 3].map(() => call('POST', '/api/v1/admin/exclusions', { cookie: admin.cookie, body })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409]);
    expect(await db().senderExclusion.count({ where: { memberId: null, value: 'race@org.test' } })).toBe(1);
  });

  it('403 auth.forbidden for a member; admin scopes for keys', async () => {
    for (const [method, path] of [['GET', '/api/v1/admin/exclusions'], ['POST', '/api/v1/admin/exclusions']] as const) {
      const response = await call(method, path, { cookie: member.cookie, body: method === 'POST' ? { kind: 'address', value: 'x@y.test' } : undefined });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('auth.forbidden');
    }
    const { secret } = await createApiKeyFor(admin, ['admin:read']);
    expect((await call('GET', '/api/v1/admin/exclusions', { key: secret })).status).toBe(200);
    const refused = await call('POST', '/api/v1/admin/exclusions', { key: secret, body: { kind: 'address', value: 'x@y.test' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.required).toBe('admin:write');
  });
});
