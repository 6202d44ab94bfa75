/**
 * The rules every dashboard route shares (the common query, scopes, the admin rules, foreign
 * filters), checked once on `GET /api/v1/dashboard/executions`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createExecution } from '../../testing/execution-factories';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let other: TestMember;
let othersWorkflowId: string;
let othersMailboxId: string;

const path = '/api/v1/dashboard/executions';
const window = 'period=custom&from=2026-05-01T00:00:00Z&to=2026-05-08T00:00:00Z';

async function seedRuns(owner: TestMember, count: number, mailboxId: string | null = null) {
  const { workflow, version } = await createWorkflow(owner, { name: `Flow of ${owner.name}` });
  for (let index = 0; index < count; index += 1) {
    await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'succeeded', mailboxId, createdAt: new Date('2026-05-03T10:00:00Z') });
  }
  return workflow.id;
}

const total = async (query: string, reader: TestMember) => {
  const response = await call('GET', `${path}?${query}`, { cookie: reader.cookie });
  expect(response.status).toBe(200);
  return response.body.current.total as number;
};

beforeAll(async () => {
  admin = await createMember({ role: 'admin', name: 'Admin' });
  member = await createMember({ name: 'Member' });
  other = await createMember({ name: 'Other' });
  othersMailboxId = (await createMailbox(other)).id;
  await seedRuns(admin, 1);
  await seedRuns(member, 2);
  othersWorkflowId = await seedRuns(other, 3, othersMailboxId);
});

describe('dashboard common query', () => {
  it.each([
    ['an unknown period', 'period=week'],
    ['an unknown zone', 'tz=Mars/Olympus'],
    ['an offset instead of a zone', 'tz=%2B01:00'],
    ['custom without both bounds', 'period=custom&from=2026-05-01T00:00:00Z'],
    ['from ≥ to', 'period=custom&from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z'],
    ['a window longer than 92 days', 'period=custom&from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:01Z'],
    ['from/to without custom', 'period=7d&from=2026-05-01T00:00:00Z'],
    ['memberId without scope=org', `memberId=${'00000000-0000-4000-8000-000000000000'}`],
    ['a date that is not one', 'period=custom&from=yesterday&to=2026-05-01T00:00:00Z'],
    ['a mailboxId that is not a uuid', 'mailboxId=nope'],
    ['a 10 KB zone', `tz=${'A'.repeat(10_000)}`],
    ['a prototype-named zone', 'tz=__proto__'],
    ['a prototype-named scope', 'scope=__proto__'],
    ['constructor as a period', 'period=constructor'],
  ])('answers %s with 400 dashboard.bad_request', async (_case, query) => {
    const reader = query.startsWith('memberId') ? admin : member;
    const response = await call('GET', `${path}?${query}`, { cookie: reader.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('dashboard.bad_request');
  });

  it('ignores __proto__ and constructor parameters it does not know: no 500, no polluted query', async () => {
    const response = await call('GET', `${path}?__proto__=x&constructor=y&__proto__[scope]=org&${window}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.current.total).toBe(2);
  });
});

describe('dashboard scopes and audience', () => {
  it('answers 403 dashboard.forbidden to a member asking scope=org or sending memberId', async () => {
    for (const query of ['scope=org', `scope=org&memberId=${member.id}`, `memberId=${member.id}`]) {
      const response = await call('GET', `${path}?${query}`, { cookie: member.cookie });
      expect(response.status, query).toBe(403);
      expect(response.body.error.code).toBe('dashboard.forbidden');
    }
  });

  it('counts the reader’s own runs under scope=me, the whole organisation for an administrator under scope=org, and one member with memberId', async () => {
    expect(await total(window, member)).toBe(2);
    expect(await total(window, admin)).toBe(1);
    expect(await total(`${window}&scope=org`, admin)).toBe(6);
    expect(await total(`${window}&scope=org&memberId=${other.id}`, admin)).toBe(3);
    const body = (await call('GET', `${path}?${window}&scope=org&memberId=${other.id}`, { cookie: admin.cookie })).body;
    expect(body.topWorkflows[0]).toMatchObject({ workflowId: othersWorkflowId, memberName: 'Other', total: 3 });
  });

  it('counts another member’s workflowId or mailboxId under scope=me as nothing, in the same shape as an empty answer', async () => {
    const empty = (await call('GET', `${path}?period=custom&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`, { cookie: member.cookie })).body;
    for (const filter of [`workflowId=${othersWorkflowId}`, `mailboxId=${othersMailboxId}`]) {
      const response = await call('GET', `${path}?${window}&${filter}`, { cookie: member.cookie });
      expect(response.status).toBe(200);
      expect(response.body.current).toEqual(empty.current);
      expect(response.body.previous).toEqual(empty.previous);
      expect(response.body.topWorkflows).toEqual([]);
      expect(response.body.failingWorkflows).toEqual([]);
      expect(response.body.recentFailures).toEqual([]);
      expect(response.body.series.flatMap((entry: { values: number[] }) => entry.values).every((value: number) => value === 0)).toBe(true);
    }
    // The same filters count for the administrator under scope=org.
    expect(await total(`${window}&scope=org&workflowId=${othersWorkflowId}`, admin)).toBe(3);
    expect(await total(`${window}&scope=org&mailboxId=${othersMailboxId}`, admin)).toBe(3);
  });

  it('needs dashboard:read for a key', async () => {
    const { secret: without } = await createApiKeyFor(member, ['executions:read']);
    const refused = await call('GET', `${path}?${window}`, { key: without });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'dashboard:read' } });
    const { secret: reader } = await createApiKeyFor(member, ['dashboard:read']);
    const allowed = await call('GET', `${path}?${window}`, { key: reader });
    expect(allowed.status).toBe(200);
    expect(allowed.body.current.total).toBe(2);
  });
});
