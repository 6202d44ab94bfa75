/**
 * The approval step in the real engine (a graphile-worker with the advance task and the sweeper):
 * trigger.webhook → approval.request → approve / reject branches. The run waits without a slot,
 * resumes on a decision (application or link), takes the reject port when the approval expires, and
 * a cancel ends its approval; a test run approves at once and asks nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import type { GraphInput } from '../contract/graph';
import { cancelExecutions } from './cancel';
import { wakeExecution } from './lease';
import { startExecution } from './start';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let member: TestMember;

beforeAll(async () => {
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
  await createMailbox(member, { address: 'owner@example.test' });
});
afterAll(async () => {
  await worker?.stop();
});

function graph(askParams: Record<string, unknown> = {}): GraphInput {
  return {
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} },
      { id: 'ask', type: 'approval.request', version: 1, name: 'Ask', params: { title: '{{ trigger.title }}', ...askParams } },
      { id: 'yes', type: 'data.set', version: 1, name: 'Yes', params: { fields: [{ name: 'branch', value: 'approved' }] } },
      { id: 'no', type: 'data.set', version: 1, name: 'No', params: { fields: [{ name: 'branch', value: 'rejected' }] } },
    ],
    connections: [
      { from: 'start', output: 'main', to: 'ask' },
      { from: 'ask', output: 'approve', to: 'yes' },
      { from: 'ask', output: 'reject', to: 'no' },
    ],
  };
}

async function start(options: { simulated?: boolean; askParams?: Record<string, unknown> } = {}) {
  const { workflow, version } = await createWorkflow(member, { name: 'Refunds', graph: graph(options.askParams) });
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated: options.simulated,
    trigger: { type: 'webhook', nodeId: 'start', data: { title: 'Refund order 7' } },
  });
  return execution;
}

async function waitingApproval(executionId: string) {
  const waiting = await waitForExecution(executionId, { statuses: ['waiting', 'failed', 'succeeded'] });
  expect(waiting.status).toBe('waiting');
  return { waiting, approval: await db().approval.findUniqueOrThrow({ where: { executionId_nodeId: { executionId, nodeId: 'ask' } } }) };
}

const branches = (steps: { nodeId: string; status: string }[]) => Object.fromEntries(steps.map((step) => [step.nodeId, step.status]));

describe('approval.request in a run', () => {
  it('waits (no slot, no deadline passed) with a pending approval, then resumes on the approve port when approved in the application', async () => {
    const execution = await start({ askParams: { approverEmails: ['boss@example.test'], expiresIn: { amount: 2, unit: 'hours' } } });
    const { waiting, approval } = await waitingApproval(execution.id);
    expect(waiting.holdsSlot).toBe(true);
    expect(waiting.waitUntil?.toISOString()).toBe(approval.expiresAt.toISOString());
    expect(approval).toMatchObject({ title: 'Refund order 7', status: 'pending', workflowName: 'Refunds', approverEmails: ['boss@example.test'] });
    expect(approval.expiresAt.getTime() - approval.createdAt.getTime()).toBeGreaterThan(2 * 3_600_000 - 60_000);
    expect(await db().outboundMessage.count({ where: { approvalId: approval.id, origin: 'approval' } })).toBe(1);
    expect(await db().notification.count({ where: { memberId: member.id, kind: 'approval.pending', params: { path: ['approvalId'], equals: approval.id } } })).toBe(1);

    const decided = await call('POST', `/api/v1/approvals/${approval.id}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(decided.body).toMatchObject({ approval: { status: 'approved' }, resumed: true });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(branches(done.steps)).toMatchObject({ ask: 'succeeded', yes: 'succeeded', no: 'skipped' });
    expect(done.steps.find((step) => step.nodeId === 'ask')).toMatchObject({ output: 'approve', data: { decision: 'approved', approvalId: approval.id, decidedBy: member.email } });
    // Still one approval, one email: the resumed step asked nothing again.
    expect(await db().approval.count({ where: { executionId: execution.id } })).toBe(1);
    expect(await db().outboundMessage.count({ where: { approvalId: approval.id } })).toBe(1);
  });

  it('waiting runs hold no slot: with one slot, two runs both reach their approval', async () => {
    const { workflow, version } = await createWorkflow(member, { name: 'One at a time', graph: graph() });
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 1 } });
    const started = await Promise.all(
      [1, 2].map(() => startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { title: 'x' } } })),
    );
    for (const execution of started) await waitingApproval(execution.id);
    expect(await db().approval.count({ where: { workflowId: workflow.id, status: 'pending' } })).toBe(2);
    await cancelExecutions(member.id, started.map((execution) => execution.id));
  });

  it('a rejection takes the reject port and the run succeeds (a rejection is not a failure)', async () => {
    const execution = await start();
    const { approval } = await waitingApproval(execution.id);
    await call('POST', `/api/v1/approvals/${approval.id}/decide`, { cookie: member.cookie, body: { decision: 'reject' } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(branches(done.steps)).toMatchObject({ yes: 'skipped', no: 'succeeded' });
    expect(done.steps.find((step) => step.nodeId === 'ask')).toMatchObject({ output: 'reject', data: { decision: 'rejected', reason: null, decidedBy: member.email } });
  });

  it('an approval decided from the emailed link resumes the run too', async () => {
    const execution = await start({ askParams: { approverEmails: ['boss@example.test'] } });
    const { approval } = await waitingApproval(execution.id);
    const item = await db().outboundMessage.findFirstOrThrow({ where: { approvalId: approval.id } });
    const token = /\/approvals\/t\/([A-Za-z0-9_-]{43})\/reject/.exec(item.bodyText!)![1];
    const page = await call('GET', `/api/v1/approvals/t/${token}/reject`, { ip: '10.9.9.1' });
    const pageToken = /name="pageToken" value="([^"]+)"/.exec(page.body as string)![1];
    const posted = await call('POST', `/api/v1/approvals/t/${token}/reject`, {
      ip: '10.9.9.1',
      rawBody: `pageToken=${encodeURIComponent(pageToken)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost' },
    });
    expect(posted.status).toBe(200);
    const done = await waitForExecution(execution.id);
    expect(done.steps.find((step) => step.nodeId === 'ask')).toMatchObject({ output: 'reject', data: { decision: 'rejected', decidedBy: 'boss@example.test' } });
  });

  it('expiry: past its deadline the run wakes, the approval becomes expired and the reject port runs', async () => {
    const execution = await start();
    const { approval } = await waitingApproval(execution.id);
    // The deadline moved into the past, as time would do: the run's wait, the step's and the approval's.
    const past = new Date(Date.now() - 1_000);
    await db().approval.update({ where: { id: approval.id }, data: { expiresAt: past } });
    const step = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution.id, nodeId: 'ask' } } });
    await db().executionStep.update({ where: { id: step.id }, data: { state: { ...(step.state as object), until: past.toISOString() } } });
    await db().execution.update({ where: { id: execution.id }, data: { waitUntil: past } });
    await wakeExecution(execution.id);
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(branches(done.steps)).toMatchObject({ yes: 'skipped', no: 'succeeded' });
    expect(done.steps.find((candidate) => candidate.nodeId === 'ask')).toMatchObject({ output: 'reject', data: { decision: 'expired', reason: 'expired', decidedBy: null } });
    expect(await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: 'expired', reason: 'expired', decidedVia: 'expiry' });
  });

  it('cancel: the run is cancelled and its approval expires with reason cancelled', async () => {
    const execution = await start();
    const { approval } = await waitingApproval(execution.id);
    await cancelExecutions(member.id, [execution.id]);
    expect((await db().execution.findUniqueOrThrow({ where: { id: execution.id } })).status).toBe('cancelled');
    expect(await db().approval.findUniqueOrThrow({ where: { id: approval.id } })).toMatchObject({ status: 'expired', reason: 'cancelled', decidedVia: 'cancel' });
    const response = await call('POST', `/api/v1/approvals/${approval.id}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(409);
  });

  it('a run that fails on another branch while its approval waits ends that approval (expired, run_ended): nothing is left to decide', async () => {
    const base = graph();
    const failing: GraphInput = {
      nodes: [
        ...(base.nodes ?? []),
        { id: 'pause', type: 'flow.wait', version: 1, name: 'Pause', params: { mode: 'duration', amount: 1, unit: 'seconds' } },
        // A metadata address: refused by the network guard, a permanent failure that fails the run.
        { id: 'call', type: 'http.request', version: 1, name: 'Call', params: { method: 'GET', url: 'http://169.254.169.254/latest' } },
      ],
      connections: [...(base.connections ?? []), { from: 'start', output: 'main', to: 'pause' }, { from: 'pause', output: 'main', to: 'call' }],
    };
    const { workflow, version } = await createWorkflow(member, { name: 'Two branches', graph: failing });
    const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { title: 'Refund order 9' } } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'http_blocked' });
    const approval = await db().approval.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution.id, nodeId: 'ask' } } });
    expect(approval).toMatchObject({ status: 'expired', reason: 'run_ended', decidedVia: 'expiry' });
    const response = await call('POST', `/api/v1/approvals/${approval.id}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(409);
  });

  it('with approvers and no mailbox the step fails permanently with mail.mailbox_required', async () => {
    const owner = await createMember();
    const { workflow, version } = await createWorkflow(owner, { graph: graph({ approverEmails: ['a@example.test'] }) });
    const execution = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: { title: 'x' } } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'mail.mailbox_required', nodeId: 'ask', kind: 'permanent' });
    expect(await db().approval.count({ where: { executionId: execution.id } })).toBe(0);
  });

  it('a test run approves at once: no approval, notification or email', async () => {
    const execution = await start({ simulated: true, askParams: { approverEmails: ['boss@example.test'] } });
    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'ask')).toMatchObject({ output: 'approve', data: { decision: 'approved', simulated: true } });
    expect(await db().approval.count({ where: { executionId: execution.id } })).toBe(0);
    expect(await db().outboundMessage.count({ where: { executionId: execution.id } })).toBe(0);
  });
});
