import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../testing/factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
});

describe('REST bodies are JSON: their booleans and numbers are not coerced from other types', () => {
  it.each([['"false"'], ['"true"'], ['{}'], ['1']])('keyUnique: %s in a body is 400, never read as a boolean', async (raw) => {
    const response = await call('POST', '/api/v1/tables', {
      cookie: admin.cookie,
      rawBody: `{"name":"Coerced","keyUnique":${raw}}`, headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('a real boolean still works, and a query number is still read from its text', async () => {
    const created = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: 'Strict', keyUnique: false } });
    expect(created.status).toBe(201);
    const rows = await call('GET', `/api/v1/tables/${created.body.table?.id ?? created.body.id}/rows?limit=5`, { cookie: admin.cookie });
    expect(rows.status).toBe(200);
  });

  it('after a REST call, the same schema does not coerce on the UI transport either', async () => {
    const response = await call('POST', '/api/trpc/tables.create', { cookie: admin.cookie, body: { name: 'Via tRPC', keyUnique: 'false' } });
    expect(response.status).toBe(400);
  });
});
