/**
 * Evaluation runs that call models (`callModels`): through the route, the `eval.run` driver and the
 * real engine, against a fake OpenAI-style vendor. Without the option AI nodes answer simulated
 * outputs; with it both versions call the model, usage and cost are recorded and shown on the run,
 * and budgets are enforced (a spent budget refuses the start, ends cases, fails the run only when
 * every case that ran ended so).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../../engine/contract/graph';
import { setCapabilityOptionsForTests } from '../../engine-adapters/compose';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../testing/ai-fakes';
import { createMember, type TestMember } from '../../testing/factories';
import { createFakeLlmConnection, recordPastSpend } from '../../testing/llm-factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, type EngineWorker } from '../../../runner/engine/testing/engine-worker';
import { driveEvalRun } from './drive';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;
let vendor: FakeVendorServer;

type Node = { id: string; type: string; version: number; name: string; params: Record<string, unknown>; position: { x: number; y: number } };
const node = (id: string, type: string, params: Record<string, unknown> = {}): Node => ({ id, type, version: 1, name: id, params, position: { x: 0, y: 0 } });
const labels = [{ name: 'invoice' }, { name: 'other' }];
const classify = node('classify', 'ai.classify', { labels, text: '{{ trigger.subject }}' });
const answer = { kind: 'json' as const, value: { label: 'invoice', confidence: 0.9 }, usage: { input: 100, output: 10 } };

beforeAll(async () => {
  vendor = await startFakeVendor('openai');
  setCapabilityOptionsForTests({ aiNet: fakeNet });
  worker = await startEngineWorker(databaseUrl, { concurrency: 8 });
  member = await createMember();
  await createFakeLlmConnection(vendor, { label: 'Fake A' });
  // 100 input tokens at 1,000 USD/M and 10 output at 2,000 USD/M: 0.12 USD a call.
  await db().llmPrice.create({ data: { provider: 'ai_vendor_a', model: 'fake-model', inputUsdPerMillion: 1_000, outputUsdPerMillion: 2_000 } });
});
afterAll(async () => {
  await worker?.stop();
  await vendor?.close();
  setCapabilityOptionsForTests({});
});
beforeEach(async () => {
  vendor.reset();
  await db().llmBudget.deleteMany({});
  await db().llmUsage.deleteMany({});
});

/** A mailbox with these subjects and a workflow on it: mail trigger → the given nodes in a chain. */
async function workflowOn(subjects: string[], nodes: Node[], options: { publish?: boolean; connections?: GraphInput['connections'] } = {}) {
  const mailbox = await createMailbox(member);
  const base = Date.now() - 3_600_000;
  for (const [index, subject] of subjects.entries()) await createMessage(mailbox, { subject, receivedAt: new Date(base + index * 60_000) });
  const all = [node('start', 'trigger.mail', { mailboxIds: [mailbox.id] }), ...nodes];
  const connections = options.connections ?? all.slice(1).map((to, index) => ({ from: all[index].id, output: 'main', to: to.id }));
  const { workflow } = await createWorkflow(member, { graph: { nodes: all, connections } as GraphInput, publish: options.publish ?? false });
  return workflow;
}

async function evaluate(workflowId: string, body: Record<string, unknown>) {
  const started = await call('POST', `/api/v1/workflows/${workflowId}/eval-runs`, { cookie: member.cookie, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const id = started.body.evalRun.id as string;
  expect(started.body.evalRun).toMatchObject({ callModels: body.callModels === true, costUsd: body.callModels === true ? 0 : null });
  while ((await driveEvalRun(id, { budgetMs: 60_000 })) === 'again');
  const run = await call('GET', `/api/v1/eval-runs/${id}`, { cookie: member.cookie });
  const cases = await call('GET', `/api/v1/eval-runs/${id}/cases?limit=200`, { cookie: member.cookie });
  return { id, run: run.body.evalRun, cases: cases.body.cases as { path: string[]; error: { code: string } | null; executionId: string | null; baselineExecutionId: string | null }[] };
}

describe('an evaluation of a workflow with AI nodes', () => {
  it('by default answers simulated outputs: no model call, no usage, no cost', async () => {
    const workflow = await workflowOn(['Invoice 1', 'Invoice 2'], [classify]);
    const { run, cases } = await evaluate(workflow.id, {});
    expect(run).toMatchObject({ status: 'succeeded', callModels: false, costUsd: null, figures: { triggered: 2, errors: 0 } });
    expect(cases.map((item) => item.path)).toEqual([
      ['start', 'classify'],
      ['start', 'classify'],
    ]);
    expect(vendor.requests).toHaveLength(0);
    expect(await db().llmUsage.count()).toBe(0);
    const step = await db().executionStep.findFirstOrThrow({ where: { executionId: cases[0].executionId!, nodeId: 'classify' } });
    expect(step.data).toMatchObject({ ai: { simulated: true } });
  });

  it('with callModels calls the model in both versions, records usage against their runs and shows the cost', async () => {
    const workflow = await workflowOn(['Invoice 1', 'Invoice 2'], [classify], { publish: true });
    vendor.reply(answer, answer, answer, answer);
    const { id, run, cases } = await evaluate(workflow.id, { callModels: true });
    expect(run).toMatchObject({ status: 'succeeded', baseline: 'published', callModels: true, figures: { triggered: 2, errors: 0, changed: 0 } });
    expect(run.costUsd).toBeCloseTo(0.48, 6);
    expect(vendor.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(4);
    const executionIds = cases.flatMap((item) => [item.executionId, item.baselineExecutionId]);
    const usage = await db().llmUsage.findMany({ where: { memberId: member.id } });
    expect(usage).toHaveLength(4);
    expect(new Set(usage.map((row) => row.executionId))).toEqual(new Set(executionIds));
    expect(usage.every((row) => row.purpose === 'classify' && row.workflowId === workflow.id)).toBe(true);
    const step = await db().executionStep.findFirstOrThrow({ where: { executionId: cases[0].executionId!, nodeId: 'classify' } });
    expect(step.data).toMatchObject({ label: 'invoice', ai: { simulated: false } });
    // The list shows the same cost; another member cannot read the run.
    const listed = await call('GET', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie });
    expect(listed.body.evalRuns[0]).toMatchObject({ id, callModels: true });
    expect(listed.body.evalRuns[0].costUsd).toBeCloseTo(0.48, 6);
    const stranger = await createMember();
    const hidden = await call('GET', `/api/v1/eval-runs/${id}`, { cookie: stranger.cookie });
    expect(hidden.status).toBe(404);
  });

  it('a budget already spent refuses the start with 402 llm.budget_exceeded and nothing is created', async () => {
    const workflow = await workflowOn(['Invoice 1'], [classify]);
    await db().llmBudget.create({ data: { id: 'instance', memberMonthlyUsd: 0.1 } });
    await recordPastSpend(member.id, 1);
    const refused = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: { callModels: true } });
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe('llm.budget_exceeded');
    expect(await db().evalRun.count({ where: { workflowId: workflow.id } })).toBe(0);
    // Without model calls the same evaluation starts.
    const { run } = await evaluate(workflow.id, {});
    expect(run.status).toBe('succeeded');
  });

  it('a budget spent during the run ends each case with llm.budget_exceeded; every case so: the run fails with it', async () => {
    const workflow = await workflowOn(['Invoice 1', 'Invoice 2'], [classify]);
    const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: { callModels: true } });
    expect(started.status).toBe(202);
    await db().llmBudget.create({ data: { id: 'instance', instanceMonthlyUsd: 0.1 } });
    await recordPastSpend(member.id, 1);
    while ((await driveEvalRun(started.body.evalRun.id, { budgetMs: 60_000 })) === 'again');
    const run = (await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}`, { cookie: member.cookie })).body.evalRun;
    expect(run).toMatchObject({ status: 'failed', error: { code: 'llm.budget_exceeded' }, progress: { done: 2, total: 2 }, figures: { triggered: 2, errors: 2 }, costUsd: 0 });
    const cases = (await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}/cases`, { cookie: member.cookie })).body.cases;
    expect(cases.map((item: { error: { code: string } | null }) => item.error?.code)).toEqual(['llm.budget_exceeded', 'llm.budget_exceeded']);
    expect(vendor.requests).toHaveLength(0);
  });

  it('a spent budget that only some cases meet: those cases carry the error and the run succeeds', async () => {
    const graph = [
      node('if', 'logic.if', { conditions: [{ left: '{{ trigger.subject }}', operator: 'equals', right: 'Invoice 1' }] }),
      classify,
      node('skip', 'data.set', { fields: [] }),
    ];
    const workflow = await workflowOn(['Invoice 1', 'Lunch?'], graph, {
      connections: [
        { from: 'start', output: 'main', to: 'if' },
        { from: 'if', output: 'true', to: 'classify' },
        { from: 'if', output: 'false', to: 'skip' },
      ],
    });
    const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: { callModels: true } });
    expect(started.status).toBe(202);
    await db().llmBudget.create({ data: { id: 'instance', instanceMonthlyUsd: 0.1 } });
    await recordPastSpend(member.id, 1);
    while ((await driveEvalRun(started.body.evalRun.id, { budgetMs: 60_000 })) === 'again');
    const run = (await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}`, { cookie: member.cookie })).body.evalRun;
    expect(run).toMatchObject({ status: 'succeeded', error: null, figures: { triggered: 2, errors: 1 } });
    const cases = (await call('GET', `/api/v1/eval-runs/${started.body.evalRun.id}/cases`, { cookie: member.cookie })).body.cases;
    const byPath = Object.fromEntries(cases.map((item: { path: string[]; error: { code: string } | null }) => [item.path.join('>'), item.error?.code ?? null]));
    expect(byPath).toEqual({ 'start>if>classify': 'llm.budget_exceeded', 'start>if>skip': null });
  });
});
