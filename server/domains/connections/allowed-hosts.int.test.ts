/**
 * The hosts an `http_generic` connection's secret may be sent to (issue 18, item 2), through the
 * routes: required for organisation connections, normalised, validated entry by entry (400
 * `credential.bad_request`), shown as `allowedHosts`, replaced by an update. Outsiders' attempts kept.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { prototypeNames } from '../../testing/prototype-names';
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

beforeEach(async () => {
  await db().credential.deleteMany();
});

const bearer = { kind: 'bearer', token: 'tok-secret-123456' };

function create(who: TestMember, body: Record<string, unknown>) {
  return call('POST', '/api/v1/credentials', { cookie: who.cookie, body: { type: 'http_generic', name: 'API', data: bearer, ...body } });
}

describe('allowedHosts on creation', () => {
  it('credential hosts required for org: an organisation http_generic connection without allowedHosts is 400 credential.bad_request (hosts_required)', async () => {
    const response = await create(admin, { scope: 'org' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'hosts_required' } });
    expect(response.body.error.message).toMatch(/allowedHosts/);
    expect(await db().credential.count()).toBe(0);
  });

  it('credential hosts normalised: stored and listed lower-case, internationalised names as xn--, default port dropped, duplicates removed', async () => {
    const response = await create(admin, { scope: 'org', allowedHosts: ['API.Example.com', 'api.example.com:443', 'bücher.example', 'HTTPS://Secure.Example.com/', 'api.example.com:8443'] });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const hosts = ['api.example.com', 'xn--bcher-kva.example', 'https://secure.example.com', 'api.example.com:8443'];
    expect(await db().credential.findUniqueOrThrow({ where: { id: response.body.id } })).toMatchObject({ allowedHosts: hosts, sentAs: 'authorization' });
    const list = await call('GET', '/api/v1/credentials', { cookie: member.cookie });
    expect(list.body.items).toEqual([expect.objectContaining({ id: response.body.id, scope: 'org', allowedHosts: hosts })]);
  });

  it('a member’s own connection may omit them (bound at first use) and then shows none', async () => {
    const response = await create(member, {});
    expect(response.status).toBe(201);
    const list = await call('GET', '/api/v1/credentials', { cookie: member.cookie });
    expect(list.body.items[0]).not.toHaveProperty('allowedHosts');
  });

  it.each([
    ['a wildcard', ['*.example.com'], /Wildcards/],
    ['a path', ['api.example.com/v1'], /no path/],
    ['a user name', ['user:pw@api.example.com'], /no path/],
    ['another scheme', ['ftp://api.example.com'], /http and https/],
    ['a name that is not a host', ['exa mple.com'], /./],
    ['a bad label', ['-x-.example.com'], /Not a host/],
    ['a port out of range', ['api.example.com:70000'], /Not a host/],
    ['an empty entry', [''], /Not a host/],
    ['an entry of 301 characters', [`${'a'.repeat(297)}.com`], /./],
  ])('credential hosts validated: %s is 400 credential.bad_request naming the entry', async (_what, allowedHosts, message) => {
    const response = await create(member, { allowedHosts: ['ok.example.com', ...allowedHosts] });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
    expect(response.body.error.details.issues).toEqual([expect.objectContaining({ path: 'allowedHosts.1', message: expect.stringMatching(message) })]);
    expect(await db().credential.count()).toBe(0);
  });

  it.each([
    ['an empty list', []],
    ['21 entries', Array.from({ length: 21 }, (_, index) => `h${index}.example.com`)],
    ['100,000 entries', Array.from({ length: 100_000 }, () => 'a.example')],
    ['a string', 'api.example.com'],
    ['numbers', [1, 2]],
    ['an object', { __proto__: null, host: 'api.example.com' }],
    ['null', null],
  ])('credential hosts validated: %s is 400 credential.bad_request', async (_what, allowedHosts) => {
    const response = await create(member, { allowedHosts });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
    expect(await db().credential.count()).toBe(0);
  });

  it('names of Object.prototype as hosts: refused when not host names, stored as plain entries when they are', async () => {
    const refused = prototypeNames.filter((name) => !/^[a-z]+$/i.test(name));
    for (const name of refused) {
      const response = await create(member, { allowedHosts: [name] });
      expect(response.status, name).toBe(400);
      expect(response.body.error.code).toBe('credential.bad_request');
    }
    const plain = prototypeNames.filter((name) => /^[a-z]+$/i.test(name));
    const response = await create(member, { allowedHosts: plain });
    expect(response.status).toBe(201);
    expect((await db().credential.findUniqueOrThrow({ where: { id: response.body.id } })).allowedHosts).toEqual(plain.map((name) => name.toLowerCase()));
    // A body whose allowedHosts object is keyed by a prototype name is not a list.
    const raw = await call('POST', '/api/v1/credentials', {
      cookie: member.cookie,
      rawBody: '{"type":"http_generic","name":"API","data":{"kind":"bearer","token":"t"},"allowedHosts":{"__proto__":["a.example"]}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
  });

  it('allowedHosts on another type is 400 credential.bad_request (hosts_not_applicable)', async () => {
    const response = await call('POST', '/api/v1/credentials', { cookie: member.cookie, body: { type: 'my_service', name: 'Other', data: { token: 'x' }, allowedHosts: ['api.example.com'] } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'hosts_not_applicable' } });
  });
});

describe('allowedHosts on update', () => {
  it('credential hosts replaced by an update, kept without the field, and audited', async () => {
    const id = (await create(admin, { scope: 'org', allowedHosts: ['a.example.com'] })).body.id as string;
    const renamed = await call('PUT', `/api/v1/credentials/${id}`, { cookie: admin.cookie, body: { name: 'Renamed' } });
    expect(renamed.body.credential.allowedHosts).toEqual(['a.example.com']);
    const moved = await call('PUT', `/api/v1/credentials/${id}`, { cookie: admin.cookie, body: { name: 'Renamed', allowedHosts: ['B.example.com', 'b.example.com'] } });
    expect(moved.status).toBe(200);
    expect(moved.body.credential.allowedHosts).toEqual(['b.example.com']);
    const audit = await db().auditEntry.findFirst({ where: { targetId: id, action: 'credential.updated' }, orderBy: { at: 'desc' } });
    expect(audit?.details).toMatchObject({ allowedHosts: ['b.example.com'] });
  });

  it('an outsider cannot move a connection’s hosts: a member on the organisation’s is 403, on another member’s 404', async () => {
    const orgId = (await create(admin, { scope: 'org', allowedHosts: ['a.example.com'] })).body.id as string;
    const theirs = (await create(other, { allowedHosts: ['mine.example.com'] })).body.id as string;
    const onOrg = await call('PUT', `/api/v1/credentials/${orgId}`, { cookie: member.cookie, body: { name: 'API', allowedHosts: ['evil.example'] } });
    expect(onOrg.status).toBe(403);
    expect(onOrg.body.error.code).toBe('credential.admin_required');
    const onTheirs = await call('PUT', `/api/v1/credentials/${theirs}`, { cookie: member.cookie, body: { name: 'API', allowedHosts: ['evil.example'] } });
    expect(onTheirs.status).toBe(404);
    expect((await db().credential.findUniqueOrThrow({ where: { id: orgId } })).allowedHosts).toEqual(['a.example.com']);
    expect((await db().credential.findUniqueOrThrow({ where: { id: theirs } })).allowedHosts).toEqual(['mine.example.com']);
  });

  it('invalid hosts on an update are 400 and change nothing', async () => {
    const id = (await create(member, { allowedHosts: ['a.example.com'] })).body.id as string;
    for (const allowedHosts of [['*.example.com'], [], ['a.example.com/x']]) {
      const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'API', allowedHosts } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('credential.bad_request');
    }
    expect((await db().credential.findUniqueOrThrow({ where: { id } })).allowedHosts).toEqual(['a.example.com']);
  });
});
