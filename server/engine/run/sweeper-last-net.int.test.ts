/**
 * The sweeper's last net (sweeper.ts): a running run nobody holds, with no job and nothing left to wait for, is
 * queued to advance again. A running run may legitimately sit without a job while a step waits for its called runs
 * (the last one's end wakes it) or for a decision (the decision wakes it): it is left alone only while that wait is
 * real. Once its called runs have all ended, or its decision is stored, a lost wake-up would leave it running
 * forever, so the net takes it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';
import { createMember, type TestMember } from '../../testing/factories';
import { createExecution } from '../../testing/execution-factories';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { leftRunning } from '../../../runner/engine/testing/left-running';
import { sweepExecutions } from './sweeper';

await useTestDatabase();

let member: TestMember;
let flow: { workflowId: string; workflowVersionId: string };

beforeEach(async () => {
  member = await createMember();
  const { workflow, version } = await createWorkflow(member, {
    graph: {
      nodes: [
        { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
        { id: 'call', type: 'flow.sub_workflow', version: 1, name: 'Call', params: {} },
      ],
      connections: [{ from: 'start', output: 'main', to: 'call' }],
    },
  });
  flow = { workflowId: workflow.id, workflowVersionId: version!.id };
});

/** A running run as its advancer left it half a minute ago (no lease, no job), with one waiting step. */
async function runningWithWaitingStep(state: Prisma.InputJsonObject, decision?: Prisma.InputJsonObject) {
  const execution = await leftRunning({ memberId: member.id, ...flow, lease: null });
  await db().executionStep.create({
    data: { executionId: execution.id, nodeId: 'call', nodeType: 'flow.sub_workflow', status: 'waiting', seq: 1, attempt: 1, state, ...(decision ? { decision } : {}) },
  });
  await db().$executeRaw`UPDATE executions SET updated_at = now() - interval '1 minute' WHERE id = ${execution.id}::uuid`;
  return execution;
}

async function calledRun(parentId: string, status: 'running' | 'succeeded') {
  return createExecution(member, { ...flow, status, parentExecutionId: parentId, startedBy: 'sub_workflow', holdsSlot: false });
}

async function swept(executionId: string): Promise<boolean> {
  await sweepExecutions();
  const jobs = await db().$queryRaw<unknown[]>`SELECT 1 FROM graphile_worker.jobs WHERE key = ${`execution:${executionId}`}`;
  return jobs.length > 0;
}

const waitingForChildren = { mode: 'children', until: null, node: {} };
const waitingForDecision = { mode: 'waiting', until: null, node: {} };

describe('the last net takes a running run only when its wait is over', () => {
  it('leaves a run whose step waits for a called run still running', async () => {
    const parent = await runningWithWaitingStep(waitingForChildren);
    await calledRun(parent.id, 'running');
    expect(await swept(parent.id)).toBe(false);
  });

  it('takes a run whose called runs have all ended (their wake-up was lost)', async () => {
    const parent = await runningWithWaitingStep(waitingForChildren);
    await calledRun(parent.id, 'succeeded');
    expect(await swept(parent.id)).toBe(true);
  });

  it('leaves a run whose step waits for a decision not yet made', async () => {
    const run = await runningWithWaitingStep(waitingForDecision);
    expect(await swept(run.id)).toBe(false);
  });

  it('takes a run whose step has its decision stored', async () => {
    const run = await runningWithWaitingStep(waitingForDecision, { approved: true });
    expect(await swept(run.id)).toBe(true);
  });

  it('leaves a run touched in the last seconds (its advance may be on its way)', async () => {
    const parent = await runningWithWaitingStep(waitingForChildren);
    await calledRun(parent.id, 'succeeded');
    await db().$executeRaw`UPDATE executions SET updated_at = now() WHERE id = ${parent.id}::uuid`;
    expect(await swept(parent.id)).toBe(false);
  });
});
