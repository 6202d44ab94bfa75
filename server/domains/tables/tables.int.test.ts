import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

const create = (body: unknown, options: { cookie?: string; key?: string; headers?: Record<string, string> } = {}) =>
  call('POST', '/api/v1/tables', { cookie: options.key ? undefined : (options.cookie ?? admin.cookie), key: options.key, body, headers: options.headers });

describe('POST /api/v1/tables', () => {
  it('answers 201 {table} with the spec’s defaults', async () => {
    const response = await create({ name: 'Customers', columns: [{ label: 'Email', type: 'email', isKey: true }, { label: 'Plan' }] });
    expect(response.status).toBe(201);
    expect(response.body.table).toEqual({
      id: expect.any(String),
      slug: 'customers',
      name: 'Customers',
      description: null,
      keyUnique: true,
      rowCount: 0,
      columns: [
        { key: 'email', label: 'Email', type: 'email', isKey: true, required: false, options: [], width: null, description: null },
        { key: 'plan', label: 'Plan', type: 'text', isKey: false, required: false, options: [], width: null, description: null },
      ],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await db().auditEntry.count({ where: { action: 'table.created', targetId: response.body.table.id } })).toBe(1);
  });

  it('derives a unique slug from the name when absent', async () => {
    const first = await create({ name: 'Leads 2026' });
    const second = await create({ name: 'Leads 2026' });
    expect(first.body.table.slug).toBe('leads-2026');
    expect(second.body.table.slug).toBe('leads-2026-2');
  });

  it('refuses a slug in use with 409 tables.duplicate_slug', async () => {
    await create({ name: 'Orders', slug: 'orders' });
    const response = await create({ name: 'Other orders', slug: 'orders' });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('tables.duplicate_slug');
  });

  it('refuses two columns with one key: tables.duplicate_column', async () => {
    const response = await create({ name: 'Dup', columns: [{ key: 'a', label: 'A' }, { key: 'a', label: 'B' }] });
    expect(response.body.error.code).toBe('tables.duplicate_column');
  });

  it.each([
    ['no name', {}],
    ['a 121-character name', { name: 'x'.repeat(121) }],
    ['a bad slug', { name: 'x', slug: 'Bad Slug' }],
    ['a column without label', { name: 'x', columns: [{ type: 'text' }] }],
    ['an unknown column type', { name: 'x', columns: [{ label: 'a', type: 'json' }] }],
    ['a 1001-character description', { name: 'x', description: 'd'.repeat(1001) }],
  ])('answers 400 request.bad_request for %s', async (_name, body) => {
    const response = await create(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('is for administrators only (403 auth.forbidden), even with a tables:write key', async () => {
    expect((await create({ name: 'Nope' }, { cookie: member.cookie })).body.error.code).toBe('auth.forbidden');
    const { secret } = await createApiKeyFor(member, ['tables:write']);
    expect((await create({ name: 'Nope' }, { key: secret })).body.error.code).toBe('auth.forbidden');
    const reader = await createApiKeyFor(admin, ['tables:read']);
    expect((await create({ name: 'Nope' }, { key: reader.secret })).body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'tables:write' } });
  });

  it('replays a create with the same Idempotency-Key instead of creating twice', async () => {
    const headers = { 'idempotency-key': 'create-projects-1' };
    const first = await create({ name: 'Projects' }, { headers });
    const replay = await create({ name: 'Projects' }, { headers });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(await db().dataTable.count({ where: { name: 'Projects' } })).toBe(1);
    expect((await create({ name: 'Other' }, { headers })).body.error.code).toBe('idempotency.key_reused');
  });

  describe('instance ceilings', () => {
    afterEach(() => {
      delete process.env.TABLES_MAX_TABLES;
      delete process.env.TABLES_MAX_COLUMNS;
      resetConfigForTests();
    });

    it('answers 409 tables.limit_reached with details.limit when the table ceiling is reached', async () => {
      process.env.TABLES_MAX_TABLES = String(await db().dataTable.count());
      resetConfigForTests();
      const response = await create({ name: 'One too many' });
      expect(response.status).toBe(409);
      expect(response.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxTables' } });
    });

    it('answers 409 tables.limit_reached for too many columns', async () => {
      process.env.TABLES_MAX_COLUMNS = '2';
      resetConfigForTests();
      const response = await create({ name: 'Wide', columns: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] });
      expect(response.body.error).toMatchObject({ code: 'tables.limit_reached', details: { limit: 'maxColumns' } });
      const limits = await call('GET', '/api/v1/tables/limits', { cookie: member.cookie });
      expect(limits.body.limits).toMatchObject({ maxColumns: 2, maxRows: 100000 });
    });
  });
});

describe('reading tables', () => {
  it('lists tables for every member and reads one by id or slug', async () => {
    const { table } = (await create({ name: 'Suppliers' })).body;
    const list = await call('GET', '/api/v1/tables', { cookie: member.cookie });
    expect(list.status).toBe(200);
    expect(list.body.tables.map((t: { id: string }) => t.id)).toContain(table.id);
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    expect((await call('GET', `/api/v1/tables/${table.id}`, { key: secret })).body.table.slug).toBe('suppliers');
    expect((await call('GET', '/api/v1/tables/suppliers', { key: secret })).body.table.id).toBe(table.id);
  });

  it('answers 404 tables.not_found for an unknown id or slug', async () => {
    for (const ref of ['00000000-0000-4000-8000-000000000000', 'no-such-table']) {
      const response = await call('GET', `/api/v1/tables/${ref}`, { cookie: member.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('tables.not_found');
    }
  });

  it('answers GET /api/v1/tables/limits with positive integers', async () => {
    const response = await call('GET', '/api/v1/tables/limits', { cookie: member.cookie });
    expect(response.body).toEqual({ limits: { maxTables: 200, maxColumns: 50, maxRows: 100000, maxCellChars: 10000 } });
  });
});

describe('PATCH and DELETE /api/v1/tables/{id}', () => {
  it('changes name, slug, description and keyUnique, and audits the change', async () => {
    const { table } = (await create({ name: 'Inventory' })).body;
    const response = await call('PATCH', `/api/v1/tables/${table.slug}`, {
      cookie: admin.cookie,
      body: { name: 'Stock', slug: 'stock', description: 'What we hold', keyUnique: false },
    });
    expect(response.status).toBe(200);
    expect(response.body.table).toMatchObject({ id: table.id, name: 'Stock', slug: 'stock', description: 'What we hold', keyUnique: false });
    const entry = await db().auditEntry.findFirstOrThrow({ where: { action: 'table.updated', targetId: table.id } });
    expect(entry.details).toEqual({ changed: ['name', 'slug', 'description', 'keyUnique'] });
  });

  it('refuses a slug another table uses, and members', async () => {
    await create({ name: 'Alpha', slug: 'alpha' });
    const { table } = (await create({ name: 'Beta', slug: 'beta' })).body;
    expect((await call('PATCH', `/api/v1/tables/${table.id}`, { cookie: admin.cookie, body: { slug: 'alpha' } })).body.error.code).toBe('tables.duplicate_slug');
    expect((await call('PATCH', `/api/v1/tables/${table.id}`, { cookie: member.cookie, body: { name: 'x' } })).body.error.code).toBe('auth.forbidden');
  });

  it('deletes a table; it is then 404', async () => {
    const { table } = (await create({ name: 'Temporary' })).body;
    const response = await call('DELETE', `/api/v1/tables/${table.id}`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body.table.id).toBe(table.id);
    expect((await call('GET', `/api/v1/tables/${table.id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/tables/${table.id}`, { cookie: admin.cookie })).body.error.code).toBe('tables.not_found');
  });
});
