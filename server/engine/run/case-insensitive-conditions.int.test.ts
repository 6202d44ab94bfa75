/**
 * Conditions compare text ignoring case by default from version 2 of the logic nodes (issue 19 §6),
 * as the mail trigger's filters do; graphs naming version 1 keep comparing with case. Real engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphInput } from '../contract/graph';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
});
afterAll(async () => {
  await worker?.stop();
});

const trigger = { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} };
const mark = (id: string) => ({ id, type: 'data.set', version: 1, name: id, params: { fields: [{ name: 'branch', value: id }], keepInput: false } });

/** webhook → condition → `yes` / `no` (a switch's case named `yes` and its fallback to `no`). */
function graphWith(condition: { type: string; version: number; params: Record<string, unknown> }, outputs: [string, string]): GraphInput {
  return {
    nodes: [trigger, { id: 'test', name: 'Test', ...condition }, mark('yes'), mark('no')],
    connections: [
      { from: 'start', output: 'main', to: 'test' },
      { from: 'test', output: outputs[0], to: 'yes' },
      { from: 'test', output: outputs[1], to: 'no' },
    ],
  };
}

async function branchTaken(graph: GraphInput, subject: string) {
  const { workflow, version } = await createWorkflow(member, { graph });
  const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { subject } } });
  const done = await waitForExecution(execution.id);
  expect(done.status).toBe('succeeded');
  return done.steps.filter((step) => step.status === 'succeeded').map((step) => step.nodeId).filter((id) => id === 'yes' || id === 'no');
}

const contains = { conditions: [{ left: '{{ trigger.subject }}', operator: 'contains', right: 'invoice' }] };

describe('case in conditions, on the real engine', () => {
  it('Text comparisons are case-insensitive by default: logic.if@2 finds “invoice” in a subject in capitals', async () => {
    expect(await branchTaken(graphWith({ type: 'logic.if', version: 2, params: contains }, ['true', 'false']), 'YOUR INVOICE NO. 42')).toEqual(['yes']);
  });

  it('Text comparisons offer a case-sensitive option: logic.if@2 with caseSensitive does not', async () => {
    expect(await branchTaken(graphWith({ type: 'logic.if', version: 2, params: { ...contains, caseSensitive: true } }, ['true', 'false']), 'YOUR INVOICE NO. 42')).toEqual(['no']);
  });

  it('Existing graphs keep their behaviour through the node version: logic.if@1 still compares with case', async () => {
    expect(await branchTaken(graphWith({ type: 'logic.if', version: 1, params: contains }, ['true', 'false']), 'YOUR INVOICE NO. 42')).toEqual(['no']);
  });

  it('Text comparisons are case-insensitive by default in a switch: logic.switch@2 takes the case for “RE: …”', async () => {
    const params = { cases: [{ name: 'reply', conditions: [{ left: '{{ trigger.subject }}', operator: 'starts_with', right: 're:' }] }] };
    expect(await branchTaken(graphWith({ type: 'logic.switch', version: 2, params }, ['reply', 'fallback']), 'RE: Lunch')).toEqual(['yes']);
    expect(await branchTaken(graphWith({ type: 'logic.switch', version: 1, params }, ['reply', 'fallback']), 'RE: Lunch')).toEqual(['no']);
  });
});
