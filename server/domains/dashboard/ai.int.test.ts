import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { monthOf } from '../llm/cost';

await useTestDatabase();

// Three whole UTC days (day buckets), the previous period is the three days before.
const window = 'period=custom&from=2025-06-10T00:00:00Z&to=2025-06-13T00:00:00Z';

let member: TestMember;
let other: TestMember;
let admin: TestMember;
let box: { id: string };
let foreignBox: { id: string };
let workflow: { id: string };
let foreignWorkflow: { id: string };
const goneMemberId = randomUUID();

interface Usage {
  at: string | Date;
  memberId: string;
  provider?: string;
  model?: string;
  purpose?: string;
  costUsd: number | null;
  ownKey?: boolean;
  workflowId?: string;
  executionId?: string;
  tokens?: [number, number, number];
}

async function usage(row: Usage) {
  const [inputTokens, outputTokens, reasoningTokens] = row.tokens ?? [10, 5, 0];
  await db().llmUsage.create({
    data: {
      createdAt: new Date(row.at),
      memberId: row.memberId,
      provider: row.provider ?? 'openai',
      model: row.model ?? 'gpt-x',
      purpose: row.purpose ?? 'ai_node',
      costUsd: row.costUsd,
      credentialId: row.ownKey ? randomUUID() : null,
      workflowId: row.workflowId ?? null,
      executionId: row.executionId ?? null,
      inputTokens,
      outputTokens,
      reasoningTokens,
    },
  });
}

const ai = (path: string, who: TestMember | string) => call('GET', `/api/v1/dashboard/ai?${path}`, typeof who === 'string' ? { key: who } : { cookie: who.cookie });

beforeAll(async () => {
  member = await createMember({ name: 'Ada' });
  other = await createMember({ name: 'Bob' });
  admin = await createMember({ role: 'admin', name: 'Root' });
  box = await createMailbox(member);
  foreignBox = await createMailbox(other);
  const created = await createWorkflow(member, { name: 'Mine' });
  workflow = created.workflow;
  foreignWorkflow = (await createWorkflow(other, { name: 'Theirs' })).workflow;
  const run = await db().execution.create({
    data: { memberId: member.id, workflowId: workflow.id, workflowVersionId: created.version!.id, timeoutMs: 1000, status: 'succeeded', mailboxId: box.id },
  });

  await usage({ at: '2025-06-10T10:00:00Z', memberId: member.id, costUsd: 0.1, workflowId: workflow.id, executionId: run.id, tokens: [100, 50, 10] });
  await usage({ at: '2025-06-11T10:00:00Z', memberId: member.id, costUsd: 0.2, workflowId: workflow.id, tokens: [200, 20, 0] });
  await usage({ at: '2025-06-11T11:00:00Z', memberId: member.id, provider: 'ai_local', model: 'llama', purpose: 'assistant', costUsd: null, tokens: [1000, 100, 0] });
  await usage({ at: '2025-06-12T23:59:59.999Z', memberId: member.id, provider: 'anthropic', model: 'claude', purpose: 'assistant', costUsd: 0.5, ownKey: true, tokens: [1, 1, 1] });
  await usage({ at: '2025-06-13T00:00:00Z', memberId: member.id, costUsd: 9 }); // at `to`: outside
  await usage({ at: '2025-06-07T00:00:00Z', memberId: member.id, costUsd: 1, ownKey: true }); // previous, at previousFrom
  await usage({ at: '2025-06-09T00:00:00Z', memberId: member.id, costUsd: null }); // previous
  await usage({ at: '2025-06-06T23:59:59.999Z', memberId: member.id, costUsd: 4 }); // before the previous period
  await usage({ at: '2025-06-11T08:00:00Z', memberId: other.id, costUsd: 2 });
  await usage({ at: '2025-06-11T09:00:00Z', memberId: goneMemberId, costUsd: 0.05, purpose: 'analyzer' });

  // This month: what budgets count (the instance's payments only).
  await usage({ at: new Date(), memberId: member.id, costUsd: 0.25 });
  await usage({ at: new Date(), memberId: member.id, costUsd: 5, ownKey: true });
  await usage({ at: new Date(), memberId: other.id, costUsd: 0.5 });
  await usage({ at: new Date(), memberId: other.id, costUsd: null });
  await db().llmBudget.create({ data: { id: 'instance', instanceMonthlyUsd: 10, memberMonthlyUsd: 2 } });
});

describe('GET /api/v1/dashboard/ai', () => {
  it('totals calls, tokens and priced cost over [from, to) and the previous period; unpriced calls counted, never priced; members’ own keys apart', async () => {
    const response = await ai(window, member);
    expect(response.status).toBe(200);
    expect(response.body.current).toEqual({
      calls: 4,
      inputTokens: 1301,
      outputTokens: 171,
      reasoningTokens: 11,
      costUsd: 0.8,
      unpricedCalls: 1,
      instanceCostUsd: 0.3, // 0.1 + 0.2, without float dust
      memberKeys: { calls: 1, costUsd: 0.5 },
    });
    expect(response.body.previous).toMatchObject({ calls: 2, costUsd: 1, unpricedCalls: 1, instanceCostUsd: 0, memberKeys: { calls: 1, costUsd: 1 } });
  });

  it('breaks the window down by model and by purpose, costliest first then most called; byMember empty for a member', async () => {
    const { body } = await ai(window, member);
    expect(body.byModel.map((row: { provider: string; model: string; calls: number; costUsd: number; unpricedCalls: number }) => [row.provider, row.model, row.calls, row.costUsd, row.unpricedCalls])).toEqual([
      ['anthropic', 'claude', 1, 0.5, 0],
      ['openai', 'gpt-x', 2, 0.3, 0],
      ['ai_local', 'llama', 1, 0, 1],
    ]);
    expect(body.byModel[1]).toMatchObject({ inputTokens: 300, outputTokens: 70, reasoningTokens: 10 });
    expect(body.byPurpose.map((row: { purpose: string; calls: number; costUsd: number }) => [row.purpose, row.calls, row.costUsd])).toEqual([
      ['assistant', 2, 0.5],
      ['ai_node', 2, 0.3],
    ]);
    expect(body.byMember).toEqual([]);
  });

  it('places calls and cost on the buckets, summing to the totals', async () => {
    const { body } = await ai(window, member);
    expect(body.window.buckets).toHaveLength(3);
    expect(body.series).toEqual({ calls: [1, 2, 1], costUsd: [0.1, 0.2, 0.5] });
  });

  it('an administrator with scope=org sees every member by cost, a deleted member without a name, and memberId narrows to one', async () => {
    const org = await ai(`${window}&scope=org`, admin);
    expect(org.status).toBe(200);
    expect(org.body.current).toMatchObject({ calls: 6, costUsd: 2.85, instanceCostUsd: 2.35, unpricedCalls: 1 });
    expect(org.body.byMember.map((row: { memberId: string; memberName: string | null; calls: number; costUsd: number }) => [row.memberId, row.memberName, row.calls, row.costUsd])).toEqual([
      [other.id, 'Bob', 1, 2],
      [member.id, 'Ada', 4, 0.8],
      [goneMemberId, null, 1, 0.05],
    ]);
    const one = await ai(`${window}&scope=org&memberId=${member.id}`, admin);
    expect(one.body.current).toMatchObject({ calls: 4, costUsd: 0.8 });
    expect(one.body.byMember.map((row: { memberId: string }) => row.memberId)).toEqual([member.id]);
    const refused = await ai(`${window}&scope=org`, member);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('dashboard.forbidden');
  });

  it('budgets: this UTC month’s instance-paid spend of everyone against the instance budget, and the reader’s (or memberId’s) against the member budget, whatever the window', async () => {
    const month = monthOf(new Date()).month;
    const mine = (await ai(window, member)).body.budgets;
    expect(mine).toEqual({ month, instance: { limitUsd: 10, spentUsd: 0.75 }, member: { memberId: member.id, limitUsd: 2, spentUsd: 0.25 } });
    const theirs = (await ai(`${window}&scope=org&memberId=${other.id}`, admin)).body.budgets;
    expect(theirs.member).toEqual({ memberId: other.id, limitUsd: 2, spentUsd: 0.5 });
    expect((await ai(`${window}&scope=org`, admin)).body.budgets.member).toEqual({ memberId: admin.id, limitUsd: 2, spentUsd: 0 });
  });

  it('workflowId narrows to that workflow’s usage; mailboxId to usage of runs of that mailbox', async () => {
    expect((await ai(`${window}&workflowId=${workflow.id}`, member)).body.current).toMatchObject({ calls: 2, costUsd: 0.3 });
    const byBox = (await ai(`${window}&mailboxId=${box.id}`, member)).body;
    expect(byBox.current).toMatchObject({ calls: 1, costUsd: 0.1, inputTokens: 100 });
    expect(byBox.byModel).toHaveLength(1);
  });

  it('another member’s mailboxId or workflowId under scope=me counts nothing', async () => {
    await usage({ at: '2025-06-11T12:00:00Z', memberId: other.id, costUsd: 3, workflowId: foreignWorkflow.id });
    for (const filter of [`mailboxId=${foreignBox.id}`, `workflowId=${foreignWorkflow.id}`]) {
      const response = await ai(`${window}&${filter}`, member);
      expect(response.status, filter).toBe(200);
      expect(response.body.current, filter).toMatchObject({ calls: 0, costUsd: 0, memberKeys: { calls: 0, costUsd: 0 } });
      expect(response.body.byModel, filter).toEqual([]);
      expect(response.body.series.calls, filter).toEqual([0, 0, 0]);
    }
  });

  it('needs dashboard:read: a key without it is 403', async () => {
    const without = await createApiKeyFor(member, ['messages:read']);
    expect((await ai(window, without.secret)).status).toBe(403);
    const withIt = await createApiKeyFor(member, ['dashboard:read']);
    expect((await ai(window, withIt.secret)).status).toBe(200);
  });
});
