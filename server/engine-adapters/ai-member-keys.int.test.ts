/**
 * Members' own AI keys (`llm_provider` credentials, LLM_MEMBER_KEYS=1) serving their AI nodes through
 * the real engine: the key is the one the vendor sees, the instance's routing and budgets step aside
 * (the member's account pays), the usage row names the key, and the instance serves again when keys
 * are not allowed or none of the member's keys can choose a model.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { sealJson } from '../core/crypto/secret-box';
import { db } from '../core/db';
import { llmProviderType } from '../domains/connections/secret-data';
import { checkBudget } from '../domains/llm/usage';
import type { GraphInput } from '../engine/contract/graph';
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

const instanceKey = 'sk-instance-key-1111';
const memberKey = 'sk-member-own-key-2222';

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const ask = (params: Record<string, unknown> = {}): GraphInput =>
  ({
    nodes: [trigger, { id: 'ask', type: 'ai.general', version: 1, name: 'Ask', params: { prompt: 'Say hello', ...params } }],
    connections: [{ from: 'start', output: 'main', to: 'ask' }],
  }) as GraphInput;

async function runToEnd(graph: GraphInput) {
  const { workflow, version } = await createWorkflow(member, { graph });
  const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  return waitForExecution(execution.id);
}

/** A member's key stored as the connections domain stores it (its base URL on the fake: tests only). */
async function addMemberKey(data: { provider: string; apiKey?: string }) {
  const id = randomUUID();
  const secret = { ...data, baseUrl: `${vendor.origin}/v1` };
  await db().credential.create({
    data: { id, memberId: member.id, scope: 'member', type: llmProviderType, name: 'My key', integration: data.provider, dataEnc: sealJson(secret, `credential:${id}`) },
  });
  return id;
}

function allowMemberKeys(allowed: boolean) {
  if (allowed) process.env.LLM_MEMBER_KEYS = '1';
  else delete process.env.LLM_MEMBER_KEYS;
  resetConfigForTests();
}

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
  await db().llmUsage.deleteMany({});
  await db().credential.deleteMany({ where: { memberId: member.id } });
  await db().llmConnection.deleteMany({});
  await createFakeLlmConnection(vendor, { apiKey: instanceKey });
  allowMemberKeys(true);
});
afterEach(() => allowMemberKeys(false));

describe('a member’s own AI key', () => {
  it('serves the member’s AI step: the vendor sees the member’s key, the usage row names it', async () => {
    const credentialId = await addMemberKey({ provider: 'ai_vendor_a', apiKey: memberKey });
    vendor.reply({ kind: 'text', text: 'Hello on my own account.' });
    const done = await runToEnd(ask());
    expect(done.status).toBe('succeeded');
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${memberKey}`);
    expect(vendor.lastRequest?.body.model).toBe('gpt-4.1-mini');
    const usage = await db().llmUsage.findMany({ where: { executionId: done.id } });
    expect(usage).toMatchObject([{ credentialId, connectionId: null, memberId: member.id, provider: 'ai_vendor_a', model: 'gpt-4.1-mini' }]);
  });

  it('a node naming a model uses it on the member’s key whose provider lists it', async () => {
    await addMemberKey({ provider: 'ai_vendor_b', apiKey: 'sk-ant-other-3333' });
    const openAiKey = await addMemberKey({ provider: 'ai_vendor_a', apiKey: memberKey });
    vendor.reply({ kind: 'text', text: 'Hello.' });
    const done = await runToEnd(ask({ model: 'gpt-4.1' }));
    expect(done.status).toBe('succeeded');
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${memberKey}`);
    expect(vendor.lastRequest?.body.model).toBe('gpt-4.1');
    expect(await db().llmUsage.findMany({ where: { executionId: done.id } })).toMatchObject([{ credentialId: openAiKey, model: 'gpt-4.1' }]);
  });

  it('is not held by a spent budget, and what it costs is not counted against the budgets', async () => {
    await db().llmBudget.create({ data: { id: 'instance', instanceMonthlyUsd: 0.5, memberMonthlyUsd: 0.5 } });
    await recordPastSpend(member.id, 1);
    await addMemberKey({ provider: 'ai_vendor_a', apiKey: memberKey });
    vendor.reply({ kind: 'text', text: 'Still served.' });
    const done = await runToEnd(ask());
    expect(done.status).toBe('succeeded');
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${memberKey}`);

    // The other way round: an expensive call on the member's key leaves the instance's budgets untouched.
    await db().llmUsage.deleteMany({ where: { credentialId: null } });
    await db().llmUsage.updateMany({ data: { costUsd: 1_000 } });
    expect(await checkBudget(member.id)).toEqual({ ok: true });
  });

  it('the instance’s routing serves when the instance does not allow members’ keys', async () => {
    await addMemberKey({ provider: 'ai_vendor_a', apiKey: memberKey });
    allowMemberKeys(false);
    vendor.reply({ kind: 'text', text: 'Instance.' });
    const done = await runToEnd(ask());
    expect(done.status).toBe('succeeded');
    expect(vendor.lastRequest?.headers.authorization).toBe(`Bearer ${instanceKey}`);
    expect(await db().llmUsage.findMany({ where: { executionId: done.id } })).toMatchObject([{ credentialId: null, connectionId: expect.any(String) }]);
  });

  it('a compatible server’s key (no default model) serves only a node naming its model', async () => {
    await addMemberKey({ provider: 'ai_generic_compatible', apiKey: memberKey });
    vendor.reply({ kind: 'text', text: 'Instance.' }, { kind: 'text', text: 'Mine.' });
    const routed = await runToEnd(ask());
    expect(routed.status).toBe('succeeded');
    expect(vendor.requests[0].headers.authorization).toBe(`Bearer ${instanceKey}`);
    const named = await runToEnd(ask({ model: 'qwen2.5-7b-instruct' }));
    expect(named.status).toBe('succeeded');
    expect(vendor.requests[1].headers.authorization).toBe(`Bearer ${memberKey}`);
    expect(vendor.requests[1].body.model).toBe('qwen2.5-7b-instruct');
  });
});
