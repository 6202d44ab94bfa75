import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createExecution, createIncident, createStep } from '../../testing/execution-factories';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let workflow: { id: string };
let versionId: string;

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  const created = await createWorkflow(member, { name: 'Invoices' });
  workflow = created.workflow;
  versionId = created.version!.id;
});

beforeEach(async () => {
  await db().incident.deleteMany();
  await db().executionStep.deleteMany();
  await db().execution.deleteMany();
});

const run = (options: Partial<Parameters<typeof createExecution>[1]> = {}, owner: TestMember = member) =>
  createExecution(owner, { workflowId: workflow.id, workflowVersionId: versionId, ...options });

describe('GET /api/v1/executions', () => {
  it('lists the member’s executions newest first with exactly the spec’s list fields', async () => {
    const older = await run({ status: 'succeeded', createdAt: at(10) });
    const newer = await run({ status: 'failed', createdAt: at(5), headline: { subject: 'Invoice 42', fromName: 'Ann', fromEmail: 'ann@example.test' } });
    await run({ createdAt: at(1) }, other);

    const response = await call('GET', '/api/v1/executions', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.executions.map((item: { id: string }) => item.id)).toEqual([newer.id, older.id]);
    expect(response.body.nextCursor).toBeNull();
    expect(response.body.executions[0]).toEqual({
      id: newer.id,
      workflowId: workflow.id,
      workflowVersionId: versionId,
      createdAt: newer.createdAt.toISOString(),
      mailboxId: null,
      messageId: null,
      status: 'failed',
      simulated: false,
      parentExecutionId: null,
      triggerNodeId: 'start',
      triggerType: 'webhook',
      retryOfExecutionId: null,
      messageHeadline: { subject: 'Invoice 42', fromName: 'Ann', fromEmail: 'ann@example.test' },
      error: { code: 'http_status', message: 'The server answered 500.', nodeId: 'call', kind: 'permanent', attempts: 1 },
      startedAt: newer.createdAt.toISOString(),
      finishedAt: expect.stringMatching(/Z$/),
      acted: null,
    });
  });

  it('filters by workflowId, status, simulated and q (subject and sender of the triggering email)', async () => {
    const second = await createWorkflow(member, { name: 'Second' });
    const a = await run({ status: 'failed', headline: { subject: 'Quarterly report', fromName: null, fromEmail: 'boss@corp.test' } });
    const b = await run({ status: 'succeeded', simulated: true, headline: { subject: 'Hello 100%', fromName: 'Zed', fromEmail: 'zed@example.test' } });
    const c = await createExecution(member, { workflowId: second.workflow.id, workflowVersionId: second.version!.id, status: 'succeeded' });
    const ids = async (query: string) => (await call('GET', `/api/v1/executions?${query}`, { cookie: member.cookie })).body.executions.map((item: { id: string }) => item.id).sort();

    expect(await ids(`workflowId=${second.workflow.id}`)).toEqual([c.id]);
    expect(await ids('status=failed')).toEqual([a.id]);
    expect(await ids('simulated=true')).toEqual([b.id]);
    expect(await ids('simulated=false')).toEqual([a.id, c.id].sort());
    expect(await ids('q=quarterly')).toEqual([a.id]);
    expect(await ids('q=CORP.test')).toEqual([a.id]);
    expect(await ids('q=zed')).toEqual([b.id]);
    // LIKE wildcards in q match themselves only.
    expect(await ids('q=%25')).toEqual([b.id]);
    expect(await ids('q=_')).toEqual([]);
  });

  it('keeps runs created in [from, to) with from and to (the dashboard’s drill-down window)', async () => {
    const from = new Date('2026-03-01T00:00:00.000Z');
    const to = new Date('2026-03-02T00:00:00.000Z');
    await run({ createdAt: new Date(from.getTime() - 1) });
    const first = await run({ createdAt: from });
    const last = await run({ createdAt: new Date(to.getTime() - 1) });
    await run({ createdAt: to });
    const response = await call('GET', `/api/v1/executions?from=${from.toISOString()}&to=${to.toISOString()}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.executions.map((item: { id: string }) => item.id)).toEqual([last.id, first.id]);
    const since = await call('GET', `/api/v1/executions?from=${to.toISOString()}`, { cookie: member.cookie });
    expect(since.body.executions).toHaveLength(1);
  });

  it('leaves out loop iterations with loopIterations=false and keeps only them with true', async () => {
    const parent = await run({ status: 'succeeded' });
    const child = await run({ status: 'succeeded', startedBy: 'sub_workflow', parentExecutionId: parent.id });
    const iteration = await run({ status: 'succeeded', startedBy: 'loop_iteration', parentExecutionId: parent.id });
    const ids = async (query: string) => (await call('GET', `/api/v1/executions?${query}`, { cookie: member.cookie })).body.executions.map((item: { id: string }) => item.id).sort();
    expect(await ids('loopIterations=false')).toEqual([parent.id, child.id].sort());
    expect(await ids('loopIterations=true')).toEqual([iteration.id]);
  });

  it('answers from ≥ to, or a from that is not a date-time, with 400 request.bad_request', async () => {
    for (const query of ['from=2026-03-02T00:00:00Z&to=2026-03-02T00:00:00Z', 'from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z', 'from=yesterday']) {
      const response = await call('GET', `/api/v1/executions?${query}`, { cookie: member.cookie });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('intersects the mailbox filter with the member’s mailboxes', async () => {
    const mine = await createMailbox(member);
    const theirs = await createMailbox(other);
    const own = await run({ mailboxId: mine.id });
    await run({ mailboxId: theirs.id }, other);
    const ids = async (mailboxId: string) => (await call('GET', `/api/v1/executions?mailboxId=${mailboxId}`, { cookie: member.cookie })).body.executions.map((item: { id: string }) => item.id);
    expect(await ids(mine.id)).toEqual([own.id]);
    expect(await ids(theirs.id)).toEqual([]);
  });

  it('pages with a cursor stable against insertion; nextCursor null at the end', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i += 1) created.push((await run({ createdAt: at(50 - i) })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const response = await call('GET', `/api/v1/executions?${query}`, { cookie: member.cookie });
      expect(response.status).toBe(200);
      seen.push(...response.body.executions.map((item: { id: string }) => item.id));
      cursor = response.body.nextCursor;
      // A run arriving meanwhile is newer: it never shifts the pages being read.
      if (pages === 0) await run({ createdAt: new Date() });
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([...created].reverse());
    expect(pages).toBe(3);
  });

  it('answers a limit above 200 with 400 request.bad_request (not a silent clamp), and takes 200', async () => {
    const over = await call('GET', '/api/v1/executions?limit=201', { cookie: member.cookie });
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('request.bad_request');
    expect((await call('GET', '/api/v1/executions?limit=200', { cookie: member.cookie })).status).toBe(200);
  });

  it('needs executions:read for a key', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const refused = await call('GET', '/api/v1/executions', { key: secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'executions:read' } });
    const { secret: reader } = await createApiKeyFor(member, ['executions:read']);
    expect((await call('GET', '/api/v1/executions', { key: reader })).status).toBe(200);
  });
});

describe('GET /api/v1/executions/{id}', () => {
  it('answers the detail form with every step field, steps in order and the run’s attachments', async () => {
    const execution = await run({ status: 'failed', triggerData: { order: 7 } });
    const second = await createStep(execution.id, {
      nodeId: 'call',
      nodeType: 'http.request@1',
      status: 'failed',
      seq: 2,
      data: null,
      effects: [{ kind: 'external', description: 'POST https://sink.test' }],
      attempts: [{ attempt: 1, at: new Date().toISOString(), code: 'http_status', message: 'HTTP 500', kind: 'permanent', retried: false }],
      error: { code: 'http_status', message: 'HTTP 500', kind: 'permanent', attempts: 1 },
    });
    const first = await createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.webhook@1', seq: 1, data: { attachments: [{ filename: 'a.pdf', size: 3 }] } });
    await db().executionStep.update({ where: { id: first.id }, data: { copiedFrom: '7d5c2f70-0000-4000-8000-000000000000', loop: { total: 3, started: 3, succeeded: 3, failed: 0, concurrency: 1, status: 'done' } } });

    const response = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: execution.id, workflowName: 'Invoices', triggerData: { order: 7 }, attachments: [{ filename: 'a.pdf', size: 3 }] });
    // Never undone (undo/undo.int.test.ts shows a run undone).
    expect(response.body.undo).toBeNull();
    expect(response.body.steps.map((step: { id: string }) => step.id)).toEqual([first.id, second.id]);
    expect(response.body.steps[0]).toEqual({
      id: first.id,
      nodeId: 'start',
      nodeType: 'trigger.webhook@1',
      status: 'succeeded',
      attempt: 1,
      output: 'main',
      data: { attachments: [{ filename: 'a.pdf', size: 3 }] },
      dataTruncated: false,
      durationMs: 12,
      effects: [],
      llmSkipped: false,
      attempts: [],
      copiedFrom: '7d5c2f70-0000-4000-8000-000000000000',
      warnings: [],
      input: { param: 'start' },
      pinned: false,
      disabled: false,
      loop: { total: 3, started: 3, succeeded: 3, failed: 0, concurrency: 1, status: 'done' },
      error: null,
    });
    // copiedFrom and loop are absent when null (their spec types are not nullable).
    expect(response.body.steps[1]).not.toHaveProperty('copiedFrom');
    expect(response.body.steps[1]).not.toHaveProperty('loop');
    expect(response.body.steps[1]).toMatchObject({ status: 'failed', data: null, effects: [{ kind: 'external', description: 'POST https://sink.test' }], error: { code: 'http_status', kind: 'permanent' } });
  });

  it('leaves out the triggering message’s attachments that the trigger data lists and steps pass on: the run did not produce them', async () => {
    const incoming = { id: '5b0f9a52-0000-4000-8000-000000000001', position: 1, filename: 'invoice.pdf', contentType: 'application/pdf', size: 900, disposition: 'attachment' };
    const execution = await run({ triggerData: { subject: 'Invoice', attachments: [incoming] } });
    await createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.mail@1', seq: 1, data: { subject: 'Invoice', attachments: [incoming] } });
    await createStep(execution.id, { nodeId: 'if', nodeType: 'logic.if@2', seq: 2, data: { subject: 'Invoice', attachments: [incoming] } });
    await createStep(execution.id, { nodeId: 'make', nodeType: 'http.request@1', seq: 3, data: { attachments: [{ filename: 'report.csv', size: 12 }] } });
    const response = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.attachments).toEqual([{ filename: 'report.csv', size: 12 }]);
  });

  it('says until when a waiting step waits, from its saved suspension, and nothing once it ended', async () => {
    const execution = await run({ status: 'waiting' });
    const deadline = new Date(Date.now() + 2 * 86_400_000);
    const waiting = await createStep(execution.id, { nodeId: 'wait', nodeType: 'flow.wait_for_reply', status: 'waiting', seq: 1, data: null, output: null });
    const suspension = { mode: 'waiting', until: deadline.toISOString(), node: { messageId: 'm-1', waitedFrom: new Date().toISOString(), deadline: deadline.toISOString() } };
    await db().executionStep.update({ where: { id: waiting.id }, data: { state: suspension } });
    // An approval with no expiry waits with no deadline; a step that ended keeps its old state, not a deadline.
    const undecided = await createStep(execution.id, { nodeId: 'approve', nodeType: 'approval.request', status: 'waiting', seq: 2, data: null, output: null });
    await db().executionStep.update({ where: { id: undecided.id }, data: { state: { mode: 'waiting', until: null, node: {} } } });
    const ended = await createStep(execution.id, { nodeId: 'pause', nodeType: 'flow.wait', seq: 3 });
    await db().executionStep.update({ where: { id: ended.id }, data: { state: { mode: 'waiting', until: deadline.toISOString(), node: {} } } });

    const response = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    const byNode = Object.fromEntries(response.body.steps.map((step: { nodeId: string }) => [step.nodeId, step]));
    expect(byNode.wait).toMatchObject({ nodeType: 'flow.wait_for_reply', status: 'waiting', waitUntil: deadline.toISOString() });
    expect(byNode.approve).not.toHaveProperty('waitUntil');
    expect(byNode.pause).not.toHaveProperty('waitUntil');
  });

  it('gives workflowName empty when the workflow was deleted', async () => {
    const gone = await createWorkflow(member, { name: 'Gone' });
    const execution = await createExecution(member, { workflowId: gone.workflow.id, workflowVersionId: gone.version!.id });
    await db().workflow.delete({ where: { id: gone.workflow.id } });
    const response = await call('GET', `/api/v1/executions/${execution.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.workflowName).toBe('');
    expect(response.body.attachments).toEqual([]);
  });

  it('answers another member’s execution with 404 execution.not_found', async () => {
    const theirs = await run({}, other);
    const response = await call('GET', `/api/v1/executions/${theirs.id}`, { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('execution.not_found');
  });
});

describe('GET /api/v1/executions/waiting', () => {
  it('lists waiting runs by deadline, no deadline last, with waitUntil, paged by cursor', async () => {
    const late = await run({ status: 'waiting', waitUntil: new Date(Date.now() + 3 * 3_600_000) });
    const none = await run({ status: 'waiting', waitUntil: null });
    const soon = await run({ status: 'waiting', waitUntil: new Date(Date.now() + 60_000) });
    await run({ status: 'running' });
    await run({ status: 'waiting', waitUntil: new Date() }, other);

    const first = await call('GET', '/api/v1/executions/waiting?limit=2', { cookie: member.cookie });
    expect(first.status).toBe(200);
    expect(first.body.executions.map((item: { id: string }) => item.id)).toEqual([soon.id, late.id]);
    expect(first.body.executions[0].waitUntil).toBe(soon.waitUntil!.toISOString());
    expect(first.body.executions[0].status).toBe('waiting');
    const second = await call('GET', `/api/v1/executions/waiting?limit=2&cursor=${first.body.nextCursor}`, { cookie: member.cookie });
    expect(second.body.executions.map((item: { id: string; waitUntil: string | null }) => ({ id: item.id, waitUntil: item.waitUntil }))).toEqual([{ id: none.id, waitUntil: null }]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('answers a limit above 200 with 400', async () => {
    expect((await call('GET', '/api/v1/executions/waiting?limit=500', { cookie: member.cookie })).status).toBe(400);
  });
});

describe('GET /api/v1/executions/summary', () => {
  it('counts live runs of the last 24 hours by default, per workflow, test runs left out', async () => {
    await run({ status: 'failed', createdAt: at(30) });
    const lastFailure = await run({ status: 'failed', createdAt: at(20) });
    await run({ status: 'succeeded', createdAt: at(10) });
    await run({ status: 'running', createdAt: at(5) });
    await run({ status: 'failed', simulated: true, createdAt: at(5) });
    await run({ status: 'failed', createdAt: at(60 * 30) });
    await run({ status: 'failed' }, other);

    const response = await call('GET', '/api/v1/executions/summary', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 4, failed: 2, running: 1, succeeded: 1, lastFailedAt: lastFailure.finishedAt!.toISOString() });
    expect(Math.abs(new Date(response.body.since).getTime() - (Date.now() - 24 * 3_600_000))).toBeLessThan(60_000);
    expect(response.body.byWorkflow).toEqual([{ workflowId: workflow.id, name: 'Invoices', failed: 2, total: 4, lastFailedAt: lastFailure.finishedAt!.toISOString() }]);
  });

  it('clamps since to 30 days back and to now, and returns the applied value', async () => {
    const old = await call('GET', `/api/v1/executions/summary?since=${encodeURIComponent('2001-01-01T00:00:00Z')}`, { cookie: member.cookie });
    expect(old.status).toBe(200);
    expect(Math.abs(new Date(old.body.since).getTime() - (Date.now() - 30 * 24 * 3_600_000))).toBeLessThan(60_000);
    const future = await call('GET', `/api/v1/executions/summary?since=${encodeURIComponent(new Date(Date.now() + 86_400_000).toISOString())}`, { cookie: member.cookie });
    expect(Math.abs(new Date(future.body.since).getTime() - Date.now())).toBeLessThan(60_000);
    expect(future.body.total).toBe(0);
    const bad = await call('GET', '/api/v1/executions/summary?since=yesterday', { cookie: member.cookie });
    expect(bad.status).toBe(400);
  });

  it('needs notifications:read, not executions:read', async () => {
    const { secret } = await createApiKeyFor(member, ['executions:read']);
    const refused = await call('GET', '/api/v1/executions/summary', { key: secret });
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'notifications:read' } });
  });
});

describe('incidents', () => {
  it('lists the member’s incidents newest first, filters since and unacknowledged, pages by cursor', async () => {
    const failures = [];
    for (let i = 0; i < 3; i += 1) {
      const execution = await run({ status: 'failed' });
      failures.push(await createIncident(member, execution, { failedAt: at(30 - i * 10) }));
      await sleep(2);
    }
    await createIncident(other, await run({}, other));
    const page = await call('GET', '/api/v1/executions/incidents?limit=2', { cookie: member.cookie });
    expect(page.status).toBe(200);
    expect(page.body.items.map((item: { id: string }) => item.id)).toEqual([failures[2]!.id, failures[1]!.id]);
    expect(page.body.items[0]).toEqual({
      id: failures[2]!.id,
      executionId: failures[2]!.executionId,
      workflowId: workflow.id,
      workflowName: 'Test workflow',
      mailboxId: null,
      failedAt: failures[2]!.failedAt.toISOString(),
      errorSummary: 'HTTP node answered 500',
      nodeId: 'call',
      nodeName: 'Call',
      acknowledgedAt: null,
      resolvedAt: null,
      resolvedByExecutionId: null,
    });
    const rest = await call('GET', `/api/v1/executions/incidents?limit=2&cursor=${page.body.nextCursor}`, { cookie: member.cookie });
    expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([failures[0]!.id]);
    expect(rest.body.nextCursor).toBeNull();

    const since = await call('GET', `/api/v1/executions/incidents?since=${encodeURIComponent(at(15).toISOString())}`, { cookie: member.cookie });
    expect(since.body.items.map((item: { id: string }) => item.id)).toEqual([failures[2]!.id]);

    await call('POST', `/api/v1/executions/incidents/${failures[2]!.id}/acknowledge`, { cookie: member.cookie });
    const open = await call('GET', '/api/v1/executions/incidents?unacknowledged=true', { cookie: member.cookie });
    expect(open.body.items.map((item: { id: string }) => item.id)).toEqual([failures[1]!.id, failures[0]!.id]);
  });

  it('acknowledges idempotently, keeping the first instant (spec: Incident unacknowledged → acknowledged)', async () => {
    const incident = await createIncident(member, await run());
    const first = await call('POST', `/api/v1/executions/incidents/${incident.id}/acknowledge`, { cookie: member.cookie });
    expect(first.status).toBe(200);
    expect(first.body.acknowledgedAt).toMatch(/Z$/);
    await sleep(5);
    const again = await call('POST', `/api/v1/executions/incidents/${incident.id}/acknowledge`, { cookie: member.cookie });
    expect(again.body.acknowledgedAt).toBe(first.body.acknowledgedAt);
  });

  it('answers another member’s incident with 404 incident.not_found and leaves it alone', async () => {
    const theirs = await createIncident(other, await run({}, other));
    const response = await call('POST', `/api/v1/executions/incidents/${theirs.id}/acknowledge`, { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('incident.not_found');
    expect((await db().incident.findUniqueOrThrow({ where: { id: theirs.id } })).acknowledgedAt).toBeNull();
  });

  it('needs notifications:write to acknowledge', async () => {
    const incident = await createIncident(member, await run());
    const { secret } = await createApiKeyFor(member, ['notifications:read']);
    const refused = await call('POST', `/api/v1/executions/incidents/${incident.id}/acknowledge`, { key: secret });
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'notifications:write' } });
  });

  it('answers a limit above 200 with 400', async () => {
    expect((await call('GET', '/api/v1/executions/incidents?limit=201', { cookie: member.cookie })).status).toBe(400);
  });
});
