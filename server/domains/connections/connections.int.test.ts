import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { openJson, sealJson } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
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
  await db().mailbox.deleteMany();
  await db().credential.deleteMany();
});

async function create(who: TestMember, body: unknown, headers?: Record<string, string>) {
  return call('POST', '/api/v1/credentials', { cookie: who.cookie, body, headers });
}

async function createOk(who: TestMember, body: Record<string, unknown>): Promise<string> {
  const response = await create(who, body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id as string;
}

/** A stored row as another flow writes it (IMAP connect, OAuth callback). */
async function storedRow(owner: TestMember, type: string, extra: { capabilities?: string[]; name?: string } = {}) {
  const id = crypto.randomUUID();
  await db().credential.create({
    data: { id, memberId: owner.id, type, name: extra.name ?? type, dataEnc: sealJson({ password: 'managed-secret' }, `credential:${id}`), capabilities: extra.capabilities ?? [] },
  });
  return id;
}

async function withoutEncryptionKey<T>(run: () => Promise<T>): Promise<T> {
  const saved = process.env.ENCRYPTION_KEY;
  delete process.env.ENCRYPTION_KEY;
  resetConfigForTests();
  try {
    return await run();
  } finally {
    process.env.ENCRYPTION_KEY = saved;
    resetConfigForTests();
  }
}

describe('POST /api/v1/credentials', () => {
  it.each([
    [{ kind: 'apiKey', headerName: 'X-Api-Key', value: 'sk-live-abcdef123456' }, 'apiKey', '3456', 'sk-live-abcdef123456'],
    [{ kind: 'bearer', token: 'bearer-token-987654321' }, 'bearer', '4321', 'bearer-token-987654321'],
    [{ kind: 'basic', username: 'ada', password: 'correct horse battery' }, 'basic', 'tery', 'correct horse battery'],
    [{ kind: 'query', paramName: 'api_key', value: 'query-secret-value' }, 'query', 'alue', 'query-secret-value'],
  ])('stores an http_generic %j sealed, lists its kind and a 4-character hint, never the secret', async (data, kind, hint, secret) => {
    const id = await createOk(member, { type: 'http_generic', name: 'My API', data });
    const row = await db().credential.findUniqueOrThrow({ where: { id } });
    expect(row.dataEnc).not.toContain(secret);
    expect(openJson(row.dataEnc, `credential:${id}`)).toEqual(data);
    expect(row).toMatchObject({ memberId: member.id, scope: 'member', type: 'http_generic', name: 'My API', kind, hint });

    const list = await call('GET', '/api/v1/credentials', { cookie: member.cookie });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      { id, type: 'http_generic', name: 'My API', scope: 'member', kind, hint, createdAt: expect.stringMatching(/Z$/), updatedAt: expect.stringMatching(/Z$/) },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(secret);
  });

  it('gives no hint for a short secret', async () => {
    const id = await createOk(member, { type: 'http_generic', name: 'Short', data: { kind: 'bearer', token: 'abc' } });
    expect((await db().credential.findUniqueOrThrow({ where: { id } })).hint).toBeNull();
  });

  it('stores a map of strings for another type, keys named like Object.prototype’s included', async () => {
    const data: Record<string, string> = {};
    for (const name of prototypeNames.filter((name) => name !== '__proto__')) data[name] = `value of ${name}`;
    data.apiKey = 'llm-secret-000111';
    const id = await createOk(member, { type: 'custom_api', name: 'LLM', data });
    const row = await db().credential.findUniqueOrThrow({ where: { id } });
    const opened = openJson(row.dataEnc, `credential:${id}`) as Record<string, string>;
    expect(Object.keys(opened).sort()).toEqual(Object.keys(data).sort());
    for (const key of Object.keys(data)) expect(Object.hasOwn(opened, key) && opened[key], key).toBe(data[key]);
    expect(row).toMatchObject({ kind: null, hint: null });
    const list = await call('GET', '/api/v1/credentials?type=custom_api', { cookie: member.cookie });
    expect(list.body.items[0]).not.toHaveProperty('kind');
    expect(list.body.items[0]).not.toHaveProperty('hint');
  });

  it('refuses a __proto__ key with 400 credential.bad_request instead of dropping it', async () => {
    const response = await call('POST', '/api/v1/credentials', {
      cookie: member.cookie,
      rawBody: '{"type":"custom_api","name":"P","data":{"__proto__":"x","apiKey":"y"}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
    expect(await db().credential.count()).toBe(0);
  });

  const long = (n: number) => 'x'.repeat(n);
  const manyKeys = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
  it.each([
    ['a name over 80 characters', { type: 'custom_api', name: long(81), data: { a: 'b' } }],
    ['an empty name', { type: 'custom_api', name: '  ', data: { a: 'b' } }],
    ['no data', { type: 'custom_api', name: 'N' }],
    ['a type with spaces', { type: 'Bad Type', name: 'N', data: { a: 'b' } }],
    ['an unknown scope', { type: 'custom_api', name: 'N', scope: 'team', data: { a: 'b' } }],
    ['51 keys', { type: 'custom_api', name: 'N', data: manyKeys }],
    ['a key over 128 characters', { type: 'custom_api', name: 'N', data: { [long(129)]: 'v' } }],
    ['an empty key', { type: 'custom_api', name: 'N', data: { '': 'v' } }],
    ['a value over 4096 characters', { type: 'custom_api', name: 'N', data: { a: long(4097) } }],
    ['a non-string value', { type: 'custom_api', name: 'N', data: { a: 1 } }],
    ['an http_generic map', { type: 'http_generic', name: 'N', data: { a: 'b' } }],
    ['an unknown http_generic kind', { type: 'http_generic', name: 'N', data: { kind: 'oauth', token: 't' } }],
    ['an extra http_generic field', { type: 'http_generic', name: 'N', data: { kind: 'bearer', token: 't', extra: 'x' } }],
    ['a bearer token over 4096', { type: 'http_generic', name: 'N', data: { kind: 'bearer', token: long(4097) } }],
    ['a header name over 128', { type: 'http_generic', name: 'N', data: { kind: 'apiKey', headerName: long(129), value: 'v' } }],
    ['a basic username over 256', { type: 'http_generic', name: 'N', data: { kind: 'basic', username: long(257), password: 'p' } }],
    ['an empty query value', { type: 'http_generic', name: 'N', data: { kind: 'query', paramName: 'k', value: '' } }],
  ])('answers 400 credential.bad_request for %s', async (_label, body) => {
    const response = await create(member, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
  });

  it.each([['mail_provider_a_oauth'], ['mail_provider_b_oauth'], ['imap']])('refuses to create a %s connection here', async (type) => {
    const response = await create(member, { type, name: 'N', data: { a: 'b' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'managed_type', type } });
  });

  it('reserves the org scope to administrators', async () => {
    const refused = await create(member, { type: 'custom_api', name: 'Shared', scope: 'org', data: { apiKey: 'k' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('credential.admin_required');
    const id = await createOk(admin, { type: 'custom_api', name: 'Shared', scope: 'org', data: { apiKey: 'k' } });
    const own = await createOk(member, { type: 'custom_api', name: 'Mine', data: { apiKey: 'k' } });
    // The member's own first, then the organisation's.
    const list = await call('GET', '/api/v1/credentials', { cookie: member.cookie });
    expect(list.body.items.map((item: { id: string; scope: string }) => [item.id, item.scope])).toEqual([
      [own, 'member'],
      [id, 'org'],
    ]);
    // Another member sees the organisation's, not this member's own.
    const theirs = await call('GET', '/api/v1/credentials', { cookie: other.cookie });
    expect(theirs.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
  });

  it('answers 409 credential.encryption_disabled without an instance key', async () => {
    const response = await withoutEncryptionKey(() => create(member, { type: 'custom_api', name: 'N', data: { a: 'b' } }));
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('credential.encryption_disabled');
  });

  it('replays an Idempotency-Key: one connection, the same id', async () => {
    const body = { type: 'custom_api', name: 'Once', data: { apiKey: 'k' } };
    const first = await create(member, body, { 'idempotency-key': 'create-once' });
    const second = await create(member, body, { 'idempotency-key': 'create-once' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotency-replayed')).toBe('true');
    expect(await db().credential.count()).toBe(1);
  });

  it('audits the creation without the secret', async () => {
    const id = await createOk(member, { type: 'http_generic', name: 'Audited', data: { kind: 'bearer', token: 'audit-me-secret-token' } });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'credential.created', targetId: id } });
    expect(entry).toMatchObject({ actorMemberId: member.id, targetKind: 'credential', details: { name: 'Audited', type: 'http_generic', scope: 'member' } });
    expect(JSON.stringify(entry)).not.toContain('audit-me-secret-token');
  });

  it('needs connections:write on a key', async () => {
    const { secret } = await createApiKeyFor(member, ['connections:read']);
    const response = await call('POST', '/api/v1/credentials', { key: secret, body: { type: 'custom_api', name: 'N', data: { a: 'b' } } });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'connections:write' } });
  });
});

describe('GET /api/v1/credentials', () => {
  it('lists OAuth grants only when their type is asked for, with capabilities; imap connections always, without hint', async () => {
    const grant = await storedRow(member, 'mail_provider_a_oauth', { capabilities: ['mail', 'drive'], name: 'ada@example.test' });
    const imap = await storedRow(member, 'imap', { name: 'ada@imap.example.test' });
    const plain = await call('GET', '/api/v1/credentials', { cookie: member.cookie });
    expect(plain.body.items.map((item: { id: string }) => item.id)).toEqual([imap]);
    expect(plain.body.items[0]).not.toHaveProperty('hint');

    const typed = await call('GET', '/api/v1/credentials?type=mail_provider_a_oauth', { cookie: member.cookie });
    expect(typed.body.items).toEqual([expect.objectContaining({ id: grant, type: 'mail_provider_a_oauth', name: 'ada@example.test', capabilities: ['mail', 'drive'] })]);
    expect(JSON.stringify(typed.body)).not.toContain('managed-secret');
  });

  it('answers 400 credential.bad_request for an invalid type', async () => {
    const response = await call('GET', `/api/v1/credentials?type=${encodeURIComponent('not a type')}`, { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('credential.bad_request');
  });

  it('works with a connections:read key, as the key’s member', async () => {
    const id = await createOk(member, { type: 'custom_api', name: 'Mine', data: { a: 'b' } });
    const { secret } = await createApiKeyFor(member, ['connections:read']);
    const response = await call('GET', '/api/v1/credentials', { key: secret });
    expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([id]);
  });
});

describe('PUT /api/v1/credentials/{id}', () => {
  it('renames and keeps the secret without data', async () => {
    const id = await createOk(member, { type: 'http_generic', name: 'Old', data: { kind: 'bearer', token: 'keep-this-token-1234' } });
    const before = await db().credential.findUniqueOrThrow({ where: { id } });
    const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'New' } });
    expect(response.status).toBe(200);
    expect(response.body.credential).toMatchObject({ id, name: 'New', kind: 'bearer', hint: '1234' });
    const after = await db().credential.findUniqueOrThrow({ where: { id } });
    expect(after.dataEnc).toBe(before.dataEnc);
  });

  it('replaces the secret entirely with data, and an http_generic connection may change kind', async () => {
    const id = await createOk(member, { type: 'http_generic', name: 'API', data: { kind: 'bearer', token: 'first-token-aaaa' } });
    const response = await call('PUT', `/api/v1/credentials/${id}`, {
      cookie: member.cookie,
      body: { name: 'API', data: { kind: 'basic', username: 'ada', password: 'second-password-bbbb' } },
    });
    expect(response.status).toBe(200);
    expect(response.body.credential).toMatchObject({ kind: 'basic', hint: 'bbbb' });
    const row = await db().credential.findUniqueOrThrow({ where: { id } });
    expect(openJson(row.dataEnc, `credential:${id}`)).toEqual({ kind: 'basic', username: 'ada', password: 'second-password-bbbb' });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'credential.updated', targetId: id } });
    expect(audit.details).toMatchObject({ secretReplaced: true });
    expect(JSON.stringify(audit)).not.toContain('second-password');
  });

  it('checks new data against the connection’s type', async () => {
    const generic = await createOk(member, { type: 'http_generic', name: 'API', data: { kind: 'bearer', token: 't' } });
    const map = await createOk(member, { type: 'custom_api', name: 'LLM', data: { a: 'b' } });
    for (const [id, data] of [
      [generic, { a: 'b' }],
      [map, { a: 1 }],
    ] as const) {
      const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'X', data } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('credential.bad_request');
    }
  });

  it('answers 404 request.not_found for another member’s connection, and leaves it as it was', async () => {
    const id = await createOk(other, { type: 'custom_api', name: 'Theirs', data: { a: 'b' } });
    for (const who of [member, admin]) {
      const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: who.cookie, body: { name: 'Stolen' } });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('request.not_found');
    }
    expect((await db().credential.findUniqueOrThrow({ where: { id } })).name).toBe('Theirs');
  });

  it('lets administrators only change organisation connections', async () => {
    const id = await createOk(admin, { type: 'custom_api', name: 'Shared', scope: 'org', data: { a: 'b' } });
    const refused = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('credential.admin_required');
    const allowed = await call('PUT', `/api/v1/credentials/${id}`, { cookie: admin.cookie, body: { name: 'Shared 2' } });
    expect(allowed.status).toBe(200);
    expect(allowed.body.credential).toMatchObject({ name: 'Shared 2', scope: 'org' });
  });

  it.each([['mail_provider_a_oauth'], ['imap']])('refuses to change a %s connection (read-only here)', async (type) => {
    const id = await storedRow(member, type);
    const response = await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'Renamed' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'credential.bad_request', details: { reason: 'read_only' } });
  });

  it('answers 409 credential.encryption_disabled when a new secret cannot be sealed, and renames without one', async () => {
    const id = await createOk(member, { type: 'custom_api', name: 'LLM', data: { a: 'b' } });
    const refused = await withoutEncryptionKey(() => call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'LLM', data: { a: 'c' } } }));
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('credential.encryption_disabled');
    const renamed = await withoutEncryptionKey(() => call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'Renamed' } }));
    expect(renamed.status).toBe(200);
  });

  it('answers 400 credential.bad_request for a name over 80 characters or an id that is not a uuid', async () => {
    const id = await createOk(member, { type: 'custom_api', name: 'LLM', data: { a: 'b' } });
    expect((await call('PUT', `/api/v1/credentials/${id}`, { cookie: member.cookie, body: { name: 'x'.repeat(81) } })).body.error.code).toBe('credential.bad_request');
    expect((await call('PUT', '/api/v1/credentials/nope', { cookie: member.cookie, body: { name: 'x' } })).body.error.code).toBe('credential.bad_request');
  });
});

describe('DELETE /api/v1/credentials/{id}', () => {
  it('deletes the connection and audits it', async () => {
    const id = await createOk(member, { type: 'custom_api', name: 'Gone', data: { a: 'b' } });
    const response = await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id, deleted: true });
    expect(await db().credential.findUnique({ where: { id } })).toBeNull();
    expect(await db().auditEntry.count({ where: { action: 'credential.deleted', targetId: id } })).toBe(1);
    const again = await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie });
    expect(again.status).toBe(404);
  });

  it('answers 409 credential.in_use naming the mailbox that uses it; a disconnected mailbox does not hold it', async () => {
    const id = await storedRow(member, 'mail_provider_a_oauth', { capabilities: ['mail'] });
    const mailbox = await createMailbox(member, { provider: 'mail_provider_a', folders: false });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { credentialId: id } });
    const refused = await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'credential.in_use', details: { mailboxId: mailbox.id, address: mailbox.address } });

    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    expect((await call('DELETE', `/api/v1/credentials/${id}`, { cookie: member.cookie })).status).toBe(200);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).credentialId).toBeNull();
  });

  it('answers 404 for another member’s connection and 403 for a member deleting an organisation one', async () => {
    const theirs = await createOk(other, { type: 'custom_api', name: 'Theirs', data: { a: 'b' } });
    const notFound = await call('DELETE', `/api/v1/credentials/${theirs}`, { cookie: member.cookie });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('request.not_found');
    const shared = await createOk(admin, { type: 'custom_api', name: 'Shared', scope: 'org', data: { a: 'b' } });
    const forbidden = await call('DELETE', `/api/v1/credentials/${shared}`, { cookie: member.cookie });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('credential.admin_required');
    expect(await db().credential.count()).toBe(2);
  });
});

afterEach(() => {
  resetConfigForTests();
});
