/**
 * AI nodes through the real engine and the llm domain (routing, budgets, usage): a fake OpenAI-style
 * vendor on 127.0.0.1 stands in for the provider (opened to the capability by a test-only option).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { db } from '../core/db';
import type { GraphInput } from '../engine/contract/graph';
import { aiRetryDefaults } from '../engine/nodes/ai/shared';
import { setCapabilityOptionsForTests } from './compose';
import { startExecution } from '../engine/run/start';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../testing/ai-fakes';
import { createMember, type TestMember } from '../testing/factories';
import { createFakeLlmConnection, recordPastSpend } from '../testing/llm-factories';
import { useTestDatabase } from '../testing/test-database';
import { createWorkflow } from '../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;
let vendor: FakeVendorServer;

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const labels = [{ name: 'invoice' }, { name: 'other' }];
const classify = (extra: Record<string, unknown> = {}) => ({ id: 'classify', type: 'ai.classify', version: 1, name: 'Classify', params: { labels, text: 'Invoice 42' }, ...extra });
const noop = (id: string) => ({ id, type: 'data.set', version: 1, name: id, params: { fields: [] } });

async function run(graph: GraphInput, options: { simulated?: boolean; callModels?: boolean } = {}) {
  const { workflow, version } = await createWorkflow(member, { graph });
  const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, simulated: options.simulated, callModels: options.callModels, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  return { workflow, execution };
}

const single = (node: Record<string, unknown>): GraphInput => ({ nodes: [trigger, node], connections: [{ from: 'start', output: 'main', to: node.id as string }] }) as GraphInput;

beforeAll(async () => {
  vendor = await startFakeVendor('openai');
  setCapabilityOptionsForTests({ aiNet: fakeNet });
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
});
afterAll(async () => {
  await worker?.stop();
  await vendor?.close();
  setCapabilityOptionsForTests({});
});
beforeEach(async () => {
  vendor.reset();
  await db().llmBudget.deleteMany({});
});

describe('no AI provider', () => {
  it('a node whose onError is continue succeeds with llmSkipped true; with fail the run fails llm.no_provider', async () => {
    await db().llmRouting.deleteMany({});
    await db().llmConnection.deleteMany({});
    const continued = await waitForExecution((await run(single(classify({ onError: 'continue' })))).execution.id);
    expect(continued.status).toBe('succeeded');
    expect(continued.steps.find((step) => step.nodeId === 'classify')).toMatchObject({ status: 'succeeded', llmSkipped: true });
    const failed = await waitForExecution((await run(single(classify()))).execution.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatchObject({ code: 'llm.no_provider', kind: 'permanent' });
    expect(failed.steps.find((step) => step.nodeId === 'classify')).toMatchObject({ llmSkipped: false });
  });
});

describe('with a connection', () => {
  beforeAll(async () => {
    await createFakeLlmConnection(vendor, { label: 'Fake A' });
    await db().llmPrice.upsert({ where: { provider_model: { provider: 'ai_vendor_a', model: 'fake-model' } }, create: { provider: 'ai_vendor_a', model: 'fake-model', inputUsdPerMillion: 1_000, outputUsdPerMillion: 2_000 }, update: {} });
  });

  it('a classify step’s label drives an if; usage is recorded with its cost on the row and the step', async () => {
    vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.8 }, usage: { input: 100, output: 10 } });
    const graph = {
      nodes: [
        trigger,
        classify(),
        { id: 'if', type: 'logic.if', version: 1, name: 'If', params: { conditions: [{ left: '{{ input.label }}', operator: 'equals', right: 'invoice' }] } },
        noop('yes'),
        noop('no'),
      ],
      connections: [
        { from: 'start', output: 'main', to: 'classify' },
        { from: 'classify', output: 'main', to: 'if' },
        { from: 'if', output: 'true', to: 'yes' },
        { from: 'if', output: 'false', to: 'no' },
      ],
    } as GraphInput;
    const { execution, workflow } = await run(graph);
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const byNode = new Map(done.steps.map((step) => [step.nodeId, step]));
    expect(byNode.get('if')).toMatchObject({ output: 'true' });
    expect(byNode.get('yes')).toMatchObject({ status: 'succeeded' });
    expect(byNode.get('no')?.status ?? 'skipped').toBe('skipped');
    const step = byNode.get('classify')!;
    expect(step.data).toMatchObject({ label: 'invoice', confidence: 0.8, costUsd: 0.12, ai: { model: 'fake-model', provider: 'ai_vendor_a', simulated: false } });
    const usage = await db().llmUsage.findMany({ where: { executionId: execution.id } });
    expect(usage).toMatchObject([{ purpose: 'classify', memberId: member.id, workflowId: workflow.id, stepId: step.id, provider: 'ai_vendor_a', model: 'fake-model', inputTokens: 100, outputTokens: 10, costUsd: 0.12 }]);
    expect(vendor.lastRequest?.headers.authorization).toBe('Bearer sk-fake-key');
  });

  it('without a test opening, a compatible server on the instance’s network is reached only when LLM_ALLOW_HOSTS names it', async () => {
    setCapabilityOptionsForTests({});
    const once = classify({ retry: { maxAttempts: 1, delayMs: 1_000 } });
    try {
      const refused = await waitForExecution((await run(single(once))).execution.id);
      expect(refused.status).toBe('failed');
      expect(refused.error).toMatchObject({ code: 'ai_call_failed' });
      expect(vendor.requests).toHaveLength(0);
      process.env.LLM_ALLOW_HOSTS = '127.0.0.1';
      resetConfigForTests();
      vendor.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.9 } });
      const done = await waitForExecution((await run(single(once))).execution.id);
      expect(done.status).toBe('succeeded');
      expect(done.steps.find((step) => step.nodeId === 'classify')!.data).toMatchObject({ label: 'invoice', confidence: 0.9, ai: { simulated: false } });
    } finally {
      delete process.env.LLM_ALLOW_HOSTS;
      resetConfigForTests();
      setCapabilityOptionsForTests({ aiNet: fakeNet });
    }
  });

  // The type's retry defaults (3 attempts, 10 s then 20 s) are the unit test's (classify.node.test.ts); here the node
  // keeps the type's attempts and takes the shortest delay a graph allows (1 s), so the file does not wait 30 s.
  it('AI calls are retried: two 500s (temporary) then a success make the type’s 3 attempts', async () => {
    vendor.reply({ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { kind: 'json', value: { label: 'other', confidence: 0.5 } });
    const retry = { maxAttempts: aiRetryDefaults.maxAttempts, delayMs: 1_000 };
    const done = await waitForExecution((await run(single(classify({ retry })))).execution.id, { timeoutMs: 60_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'classify')!;
    expect(step.attempt).toBe(3);
    expect(step.attempts).toMatchObject([
      { attempt: 1, code: 'ai_call_failed', kind: 'transient', retried: true },
      { attempt: 2, code: 'ai_call_failed', kind: 'transient', retried: true },
    ]);
    expect(step.data).toMatchObject({ label: 'other' });
  }, 70_000);

  it('AI response bounded in the runner: an oversized answer fails the step at once (permanent, one attempt, no retry)', async () => {
    vendor.reply({ kind: 'huge', bytes: 20 * 1024 * 1024 }, { kind: 'huge', bytes: 20 * 1024 * 1024 });
    const done = await waitForExecution((await run(single(classify()))).execution.id, { timeoutMs: 60_000 });
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'ai_call_failed', kind: 'permanent', attempts: 1, details: { code: 'response_too_large' } });
    expect(vendor.requests).toHaveLength(1);
  });

  it('a 429 with Retry-After postpones the step without consuming an attempt', async () => {
    vendor.reply({ kind: 'rate_limit', retryAfter: '1' }, { kind: 'json', value: { label: 'invoice', confidence: 1 } });
    const done = await waitForExecution((await run(single(classify()))).execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'classify')!;
    expect(step.attempt).toBe(1);
    expect(step.attempts).toEqual([]);
  });

  it('a spent budget fails the step llm.budget_exceeded, calls no model and records no usage', async () => {
    await db().llmBudget.create({ data: { id: 'instance', instanceMonthlyUsd: 0.0001 } });
    await recordPastSpend(member.id, 1);
    const { execution } = await run(single(classify()));
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'llm.budget_exceeded', kind: 'permanent' });
    expect(vendor.lastRequest).toBeUndefined();
    expect(await db().llmUsage.count({ where: { executionId: execution.id } })).toBe(0);
  });

  it('a test run answers a simulated classification without calling the model', async () => {
    const { execution } = await run(single(classify()), { simulated: true });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    const step = done.steps.find((candidate) => candidate.nodeId === 'classify')!;
    expect(step.data).toMatchObject({ label: 'invoice', confidence: 0, ai: { simulated: true } });
    expect(step.effects).toMatchObject([{ kind: 'ai.call', simulated: true }]);
    expect(vendor.lastRequest).toBeUndefined();
    expect(await db().llmUsage.count({ where: { executionId: execution.id } })).toBe(0);
  });

  it('a test run that asks for model calls (callModels) calls the model and records its usage', async () => {
    vendor.reply({ kind: 'json', value: { label: 'other', confidence: 0.7 }, usage: { input: 10, output: 2 } });
    const { execution } = await run(single(classify()), { simulated: true, callModels: true });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((candidate) => candidate.nodeId === 'classify')!.data).toMatchObject({ label: 'other', ai: { simulated: false } });
    expect(vendor.lastRequest).toBeDefined();
    expect(await db().llmUsage.count({ where: { executionId: execution.id } })).toBe(1);
  });
});
