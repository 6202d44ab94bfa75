import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import type { GraphInput } from '../../engine/contract/graph';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow, webhookGraph } from '../../testing/workflow-factories';

await useTestDatabase();

let member: TestMember;
let other: TestMember;

const node = (id: string, type: string) => ({ id, type, version: 1, name: `Node ${id}`, params: {}, position: { x: 0, y: 0 } });

/** webhook → a → b → call → after */
const chainGraph = (): GraphInput =>
  webhookGraph({
    nodes: [node('start', 'trigger.webhook'), node('a', 'data.set'), node('b', 'data.set'), node('call', 'http.request'), node('after', 'data.set')],
    connections: [
      { from: 'start', output: 'main', to: 'a' },
      { from: 'a', output: 'main', to: 'b' },
      { from: 'b', output: 'main', to: 'call' },
      { from: 'call', output: 'main', to: 'after' },
    ],
  });

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

beforeEach(async () => {
  await db().executionStep.deleteMany();
  await db().execution.deleteMany();
  await db().senderExclusion.deleteMany();
});

async function failedRun(options: Partial<Parameters<typeof createExecution>[1]> = {}, owner: TestMember = member) {
  const { workflow, version } = await createWorkflow(owner, { graph: chainGraph() });
  const execution = await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed', ...options });
  return { workflow, version: version!, execution };
}

const replay = (id: string, body: Record<string, unknown> = {}, owner: TestMember = member) => call('POST', `/api/v1/executions/${id}/replay`, { cookie: owner.cookie, body });

async function expectRefused(id: string, reason: string, body: Record<string, unknown> = {}) {
  const before = await db().execution.count();
  const response = await replay(id, body);
  expect(response.status).toBe(409);
  expect(response.body.error).toMatchObject({ code: 'execution.not_replayable', details: { reason } });
  // A dry run is refused the same way.
  const dry = await replay(id, { ...body, dryRun: true });
  expect(dry.body.error).toMatchObject({ code: 'execution.not_replayable', details: { reason } });
  expect(await db().execution.count()).toBe(before);
}

describe('POST /api/v1/executions/{id}/replay', () => {
  it('reruns a failed live run from the start with the same trigger data, linked to the original (202)', async () => {
    const mailbox = await createMailbox(member);
    const message = await createMessage(mailbox, { subject: 'Order', fromEmail: 'client@shop.test', fromName: 'Client' });
    const headline = { subject: 'Order', fromName: 'Client', fromEmail: 'client@shop.test' };
    const { version, execution } = await failedRun({ mailboxId: mailbox.id, messageId: message.id, headline, triggerData: { order: 7 } });
    const response = await replay(execution.id);
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ executionId: expect.any(String), from: 'start', versionId: version.id });
    const created = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    expect(created).toMatchObject({
      status: 'queued',
      simulated: false,
      holdsSlot: true,
      retryOfExecutionId: execution.id,
      replayFrom: 'start',
      startedBy: 'replay',
      workflowVersionId: version.id,
      mailboxId: mailbox.id,
      messageId: message.id,
      messageHeadline: headline,
      triggerData: { order: 7 },
      triggerType: 'webhook',
      triggerNodeId: 'start',
    });
    const jobs = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.execution(created.id)}`;
    expect(jobs[0]!.n).toBe(1);
    // Shown in the list form as the replay link.
    const detail = await call('GET', `/api/v1/executions/${created.id}`, { cookie: member.cookie });
    expect(detail.body.retryOfExecutionId).toBe(execution.id);
    expect(detail.body.steps).toEqual([]);
  });

  it('reruns a cancelled live run, with the original version when asked', async () => {
    const { workflow, version, execution } = await failedRun({ status: 'cancelled' });
    const republished = await db().workflowVersion.create({ data: { workflowId: workflow.id, number: 2, graph: chainGraph() as object, triggerType: 'webhook', triggerNodeId: 'start' } });
    await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: republished.id } });
    expect((await replay(execution.id)).body.versionId).toBe(republished.id);
    expect((await replay(execution.id, { version: 'original' })).body.versionId).toBe(version.id);
  });

  it('from the failed step keeps succeeded steps by node (continue/errorPort ones included) with copiedFrom; the failed node and removed nodes are not kept', async () => {
    const { workflow, execution } = await failedRun();
    const start = await createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.webhook@1', seq: 1 });
    const a = await createStep(execution.id, { nodeId: 'a', seq: 2, data: { total: 42 }, effects: [{ kind: 'keyed', description: 'row written' }] });
    const caught = await createStep(execution.id, { nodeId: 'b', seq: 3, output: 'error', error: { code: 'http_status', message: 'caught by errorPort' } });
    await createStep(execution.id, { nodeId: 'call', nodeType: 'http.request@1', status: 'failed', seq: 4 });
    await createStep(execution.id, { nodeId: 'removed', seq: 5 });
    // The published graph changed: `a`'s parameters differ (it keeps its output), `removed` is gone, `extra` is new.
    const graph = chainGraph();
    graph.nodes = [...(graph.nodes ?? []).map((item) => (item.id === 'a' ? { ...item, params: { changed: true } } : item)), node('extra', 'data.set')];
    const next = await db().workflowVersion.create({ data: { workflowId: workflow.id, number: 2, graph: graph as object, triggerType: 'webhook', triggerNodeId: 'start' } });
    await db().workflow.update({ where: { id: workflow.id }, data: { publishedVersionId: next.id } });

    const response = await replay(execution.id, { from: 'failed_step' });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ from: 'failed_step', versionId: next.id });
    const detail = await call('GET', `/api/v1/executions/${response.body.executionId}`, { cookie: member.cookie });
    expect(detail.body.steps.map((step: { nodeId: string; copiedFrom?: string; status: string }) => [step.nodeId, step.copiedFrom, step.status])).toEqual([
      ['start', start.id, 'succeeded'],
      ['a', a.id, 'succeeded'],
      ['b', caught.id, 'succeeded'],
    ]);
    expect(detail.body.steps[1]).toMatchObject({ data: { total: 42 }, effects: [{ kind: 'keyed', description: 'row written' }], output: 'main' });
    expect(detail.body.steps[2]).toMatchObject({ output: 'error', error: { code: 'http_status' } });
    expect((await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } })).replayFrom).toBe('failed_step');
  });

  it('dryRun lists the effects that would happen again and creates nothing (200)', async () => {
    const { execution } = await failedRun();
    await createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.webhook@1', seq: 1 });
    await createStep(execution.id, { nodeId: 'a', seq: 2, effects: [{ kind: 'keyed', description: 'row written' }] });
    await createStep(execution.id, { nodeId: 'call', nodeType: 'http.request@1', status: 'failed', seq: 3, effects: [{ kind: 'external', description: 'POST https://sink.test' }] });
    const before = { executions: await db().execution.count(), steps: await db().executionStep.count() };

    const fromStart = await replay(execution.id, { dryRun: true });
    expect(fromStart.status).toBe(200);
    expect(fromStart.body).toEqual({
      dryRun: true,
      from: 'start',
      versionId: execution.workflowVersionId,
      effects: [
        { nodeId: 'a', nodeName: 'Node a', kind: 'keyed', description: 'row written' },
        { nodeId: 'call', nodeName: 'Node call', kind: 'external', description: 'POST https://sink.test' },
      ],
    });
    const fromFailed = await replay(execution.id, { dryRun: true, from: 'failed_step' });
    expect(fromFailed.body.effects).toEqual([{ nodeId: 'call', nodeName: 'Node call', kind: 'external', description: 'POST https://sink.test' }]);
    expect({ executions: await db().execution.count(), steps: await db().executionStep.count() }).toEqual(before);
  });

  it('refuses a test run: "A test run is never replayed"', async () => {
    const { execution } = await failedRun({ simulated: true });
    await expectRefused(execution.id, 'simulated');
  });

  it('refuses a run in progress or succeeded: "the run is in progress or succeeded"', async () => {
    for (const status of ['queued', 'running', 'waiting'] as const) {
      const { execution } = await failedRun({ status });
      await expectRefused(execution.id, 'in_progress');
    }
    const { execution } = await failedRun({ status: 'succeeded' });
    await expectRefused(execution.id, 'succeeded');
  });

  it('refuses when "the workflow is archived", or deleted', async () => {
    const archived = await failedRun();
    await db().workflow.update({ where: { id: archived.workflow.id }, data: { archivedAt: new Date() } });
    await expectRefused(archived.execution.id, 'workflow_archived');
    const deleted = await failedRun();
    await db().workflow.delete({ where: { id: deleted.workflow.id } });
    await expectRefused(deleted.execution.id, 'workflow_deleted');
  });

  it('refuses when "the requested version is unavailable" (no published version; the original gone)', async () => {
    const unpublished = await failedRun();
    await db().workflow.update({ where: { id: unpublished.workflow.id }, data: { publishedVersionId: null } });
    await expectRefused(unpublished.execution.id, 'version_unavailable');
    expect((await replay(unpublished.execution.id, { version: 'original' })).status).toBe(202);

    const { workflow, execution } = await failedRun();
    const orphan = await createExecution(member, { workflowId: workflow.id, workflowVersionId: '00000000-0000-4000-8000-0000000000aa', status: 'failed' });
    await expectRefused(orphan.id, 'version_unavailable', { version: 'original' });
    expect((await replay(execution.id, { version: 'original' })).status).toBe(202);
  });

  it('refuses when "the mailbox of the original run is disconnected or gone"', async () => {
    const disconnected = await createMailbox(member, { status: 'disconnected' });
    const first = await failedRun({ mailboxId: disconnected.id });
    await expectRefused(first.execution.id, 'mailbox_disconnected');
    const removed = await createMailbox(member);
    const second = await failedRun({ mailboxId: removed.id });
    await db().mailbox.delete({ where: { id: removed.id } });
    await expectRefused(second.execution.id, 'mailbox_disconnected');
  });

  it('refuses when "the email sender is now excluded from the member’s scope" (organisation or member; address or domain with subdomains)', async () => {
    const mailbox = await createMailbox(member);
    const message = await createMessage(mailbox, { fromEmail: 'Boss@Mail.Corp.test' });
    const { execution } = await failedRun({ mailboxId: mailbox.id, messageId: message.id });
    // Another member's exclusion does not apply.
    await db().senderExclusion.create({ data: { memberId: other.id, kind: 'domain', value: 'corp.test' } });
    expect((await replay(execution.id, { dryRun: true })).status).toBe(200);

    const organisation = await db().senderExclusion.create({ data: { memberId: null, kind: 'address', value: 'boss@mail.corp.test' } });
    await expectRefused(execution.id, 'sender_excluded');
    await db().senderExclusion.delete({ where: { id: organisation.id } });

    await db().senderExclusion.create({ data: { memberId: member.id, kind: 'domain', value: 'corp.test' } });
    await expectRefused(execution.id, 'sender_excluded');
  });

  it('reads the sender from the headline when the message is gone', async () => {
    const { execution } = await failedRun({ headline: { subject: 'x', fromName: null, fromEmail: 'ops@vendor.test' } });
    await db().senderExclusion.create({ data: { memberId: member.id, kind: 'domain', value: 'vendor.test' } });
    await expectRefused(execution.id, 'sender_excluded');
  });

  it('answers another member’s execution with 404 execution.not_found', async () => {
    const { execution } = await failedRun({}, other);
    const response = await replay(execution.id);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('execution.not_found');
  });

  it('needs executions:write and a valid body', async () => {
    const { execution } = await failedRun();
    const { secret } = await createApiKeyFor(member, ['executions:read']);
    const refused = await call('POST', `/api/v1/executions/${execution.id}/replay`, { key: secret, body: {} });
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'executions:write' } });
    expect((await replay(execution.id, { from: 'middle' })).status).toBe(400);
  });
});

describe('POST /api/v1/workflows/{id}/executions/retry-failed', () => {
  it('replays failed live runs not yet replayed, oldest first; test runs never; skipped runs counted by reason', async () => {
    const { workflow, version } = await createWorkflow(member, { graph: chainGraph() });
    const make = (options: Partial<Parameters<typeof createExecution>[1]>) =>
      createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed', ...options });
    const hour = 3_600_000;
    const oldest = await make({ createdAt: new Date(Date.now() - 5 * hour) });
    const alreadyReplayed = await make({ createdAt: new Date(Date.now() - 4 * hour) });
    await make({ retryOfExecutionId: alreadyReplayed.id, status: 'succeeded' });
    const disconnected = await createMailbox(member, { status: 'disconnected' });
    await make({ createdAt: new Date(Date.now() - 3 * hour), mailboxId: disconnected.id });
    await make({ createdAt: new Date(Date.now() - 2 * hour), simulated: true });
    const newest = await make({ createdAt: new Date(Date.now() - hour) });
    const outside = await make({ createdAt: new Date(Date.now() - 3 * 24 * hour) });
    await make({ status: 'succeeded' });

    const first = await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: { limit: 1 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ replayed: [{ executionId: oldest.id, replayId: expect.any(String) }], skipped: 0, hasMore: true });

    const second = await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: {} });
    expect(second.body).toMatchObject({ replayed: [{ executionId: newest.id }], skipped: 1, skippedReasons: { mailbox_disconnected: 1 }, hasMore: false });
    const replay = await db().execution.findUniqueOrThrow({ where: { id: second.body.replayed[0].replayId } });
    expect(replay).toMatchObject({ retryOfExecutionId: newest.id, startedBy: 'replay', replayFrom: 'start' });

    // A wider window (period 7d) reaches the older failure.
    const wider = await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: { period: '7d' } });
    expect(wider.body.replayed.map((item: { executionId: string }) => item.executionId)).toEqual([outside.id]);
  });

  it('clamps since to 30 days back and refuses since with period, a limit above 200, another member’s workflow', async () => {
    const { workflow } = await createWorkflow(member, { graph: chainGraph() });
    const clamped = await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: { since: '2001-01-01T00:00:00Z' } });
    expect(clamped.status).toBe(200);
    expect(Math.abs(new Date(clamped.body.since).getTime() - (Date.now() - 30 * 24 * 3_600_000))).toBeLessThan(60_000);
    expect((await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: { since: '2026-01-01T00:00:00Z', period: '7d' } })).status).toBe(400);
    expect((await call('POST', `/api/v1/workflows/${workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: { limit: 201 } })).status).toBe(400);
    const theirs = await createWorkflow(other);
    const hidden = await call('POST', `/api/v1/workflows/${theirs.workflow.id}/executions/retry-failed`, { cookie: member.cookie, body: {} });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('workflow.not_found');
  });
});
