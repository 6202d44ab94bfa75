import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

async function newTable(columns: unknown[]) {
  const response = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: `Emails ${Math.random()}`, columns } });
  expect(response.status).toBe(201);
  return response.body.table as { id: string };
}

describe('hardening 8: an import of pathological email cells is refused line by line', () => {
  it('refuses 300 lines of "a@" + 9,996 dots + "@" with invalid_email for each', async () => {
    const table = await newTable([{ key: 'e', label: 'E', type: 'email' }]);
    const value = `a@${'.'.repeat(9996)}@`;
    const response = await call('POST', `/api/v1/tables/${table.id}/import`, { cookie: member.cookie, body: { csv: `E\n${`${value}\n`.repeat(300)}`, mapping: { E: 'e' } } });
    expect(response.status).toBe(422);
    expect(response.body.error.details.count).toBe(300);
    expect(response.body.error.details.rejected.every((line: { problems: { reason: string }[] }) => line.problems[0].reason === 'invalid_email')).toBe(true);
  });
});
