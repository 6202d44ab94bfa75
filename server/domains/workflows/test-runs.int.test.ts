/** Test runs of the draft (simulated executions on a number-less snapshot) and the webhook token. */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { tokenHash } from '../../core/auth/tokens';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { webhookGraph } from '../../testing/workflow-factories';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
});

async function draft(graph: unknown = webhookGraph()) {
  const response = await call('POST', '/api/v1/workflows', { cookie: owner.cookie, body: { name: 'Tested', graph } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.workflow.id as string;
}

const testRun = (id: string, body: unknown = {}) => call('POST', `/api/v1/workflows/${id}/test-runs`, { cookie: owner.cookie, body });

async function advanceJobs(executionId: string) {
  return db().$queryRaw<{ task: string }[]>`
    SELECT t.identifier AS task FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.payload->>'executionId' = ${executionId}`;
}

describe('POST /api/v1/workflows/{id}/test-runs', () => {
  it('starts a simulated, queued execution of a number-less snapshot of the draft (202 {executionId}), holding no slot', async () => {
    const id = await draft();
    const response = await testRun(id, { triggerData: { order: 42 } });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    expect(execution).toMatchObject({ workflowId: id, memberId: owner.id, status: 'queued', simulated: true, holdsSlot: false, triggerType: 'webhook', triggerNodeId: 'start' });
    expect(execution.triggerData).toEqual({ order: 42 });
    const snapshot = await db().workflowVersion.findUniqueOrThrow({ where: { id: execution.workflowVersionId } });
    expect(snapshot).toMatchObject({ workflowId: id, number: null, triggerType: 'webhook' });
    expect(snapshot.graph).toMatchObject({ id: snapshot.id, workflowId: id, nodes: [{ id: 'start' }] });
    expect(await advanceJobs(execution.id)).toEqual([{ task: 'execution.advance' }]);
    // A test snapshot is not a version of the workflow.
    expect((await call('GET', `/api/v1/workflows/${id}/versions`, { cookie: owner.cookie })).body.versions).toEqual([]);
    expect((await call('GET', `/api/v1/workflows/${id}`, { cookie: owner.cookie })).body.workflow.status).toBe('draft');
  });

  it('runs on a message of the member: the same trigger data a real mail run gets, its mailbox, message and headline', async () => {
    const id = await draft();
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox, { subject: 'Invoice 7', fromEmail: 'billing@example.test', fromName: 'Billing' });
    const response = await testRun(id, { messageId: message.id, upToNodeId: 'start' });
    expect(response.status).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    expect(execution).toMatchObject({ mailboxId: mailbox.id, messageId: message.id, messageHeadline: { subject: 'Invoice 7', fromName: 'Billing', fromEmail: 'billing@example.test' } });
    expect(execution.triggerData).toMatchObject({ id: message.id, mailboxId: mailbox.id, subject: 'Invoice 7', from: { name: 'Billing', email: 'billing@example.test' }, signals: [] });
    const snapshot = await db().workflowVersion.findUniqueOrThrow({ where: { id: execution.workflowVersionId } });
    expect(snapshot.graph).toMatchObject({ runUntil: 'start' });
  });

  it('on a workflow that gathers bursts of mail, the pinned message comes as a burst of one (trigger.batch), as a live run of one message has it', async () => {
    const id = await draft();
    await call('PATCH', `/api/v1/workflows/${id}`, { cookie: owner.cookie, body: { settings: { oneRunAtATime: { by: 'sender', coalesceSeconds: 60 } } } });
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox, { subject: 'Order 12', fromEmail: 'ana@client.test' });
    const response = await testRun(id, { messageId: message.id, upToNodeId: 'start' });
    expect(response.status).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    const trigger = execution.triggerData as { subject: string; batch: { id: string; subject: string }[] };
    expect(trigger.subject).toBe('Order 12');
    expect(trigger.batch).toEqual([expect.objectContaining({ id: message.id, subject: 'Order 12' })]);
    // A test run is never held by a key nor a window.
    expect(execution).toMatchObject({ serialKey: null, coalesceUntil: null });
  });

  it('refuses another member’s or an unknown message (400 workflow.test_message_not_found), an unknown upToNodeId and an invalid draft (400 workflow.invalid_graph)', async () => {
    const id = await draft();
    const theirs = await createMessage(await createMailbox(other));
    for (const messageId of [theirs.id, randomUUID()]) {
      const response = await testRun(id, { messageId });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'workflow.test_message_not_found', details: { messageIds: [messageId] } });
    }
    const ghost = await testRun(id, { upToNodeId: 'ghost' });
    expect(ghost.status).toBe(400);
    expect(ghost.body.error).toMatchObject({ code: 'workflow.invalid_graph', details: { issues: [{ path: 'upToNodeId' }] } });
    await db().workflow.update({ where: { id }, data: { graph: { nodes: [{ id: 'x', type: 'gone.type', version: 1, name: 'x' }], connections: [] } } });
    const invalid = await testRun(id);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('workflow.invalid_graph');
    expect(await db().execution.count({ where: { workflowId: id } })).toBe(0);
  });

  it('refuses trigger data above 256 KB (400 workflow.trigger_data_too_large)', async () => {
    const id = await draft();
    const response = await testRun(id, { triggerData: { blob: 'x'.repeat(256 * 1024) } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('workflow.trigger_data_too_large');
    expect(await db().execution.count({ where: { workflowId: id } })).toBe(0);
  });

  it('refuses a test run while the member’s live runs holding no slot are at MEMBER_MAX_SLOTLESS_RUNS (409 workflow.run_limit_reached); other members are not held up', async () => {
    const member = await createMember({ name: 'Busy' });
    const workflow = await call('POST', '/api/v1/workflows', { cookie: member.cookie, body: { name: 'Busy', graph: webhookGraph() } });
    const busyRun = () => call('POST', `/api/v1/workflows/${workflow.body.workflow.id}/test-runs`, { cookie: member.cookie, body: {} });
    process.env.MEMBER_MAX_SLOTLESS_RUNS = '2';
    resetConfigForTests();
    try {
      // No runner here: each test run stays queued, so it stays live.
      expect((await busyRun()).status).toBe(202);
      expect((await busyRun()).status).toBe(202);
      const refused = await busyRun();
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({ code: 'workflow.run_limit_reached', details: { limit: 2 } });
      expect(await db().execution.count({ where: { workflowId: workflow.body.workflow.id } })).toBe(2);
      const theirs = await call('POST', '/api/v1/workflows', { cookie: other.cookie, body: { name: 'Theirs', graph: webhookGraph() } });
      expect((await call('POST', `/api/v1/workflows/${theirs.body.workflow.id}/test-runs`, { cookie: other.cookie, body: {} })).status).toBe(202);
    } finally {
      delete process.env.MEMBER_MAX_SLOTLESS_RUNS;
      resetConfigForTests();
    }
  });

  it.each(prototypeNames)('keeps trigger data keyed %s as data (or refuses __proto__ with a 400)', async (name) => {
    const id = await draft();
    const key = JSON.stringify(name);
    const response = await call('POST', `/api/v1/workflows/${id}/test-runs`, {
      cookie: owner.cookie,
      rawBody: `{"triggerData":{${key}:{${key}:1}}}`,
      headers: { 'content-type': 'application/json' },
    });
    if (name === '__proto__') {
      expect(response.status).toBe(400);
      return;
    }
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    const execution = await db().execution.findUniqueOrThrow({ where: { id: response.body.executionId } });
    expect(execution.triggerData).toEqual({ [name]: { [name]: 1 } });
  });
});

describe('POST /api/v1/workflows/{id}/webhook', () => {
  const webhook = (id: string, body: unknown = {}) => call('POST', `/api/v1/workflows/${id}/webhook`, { cookie: owner.cookie, body });

  it('answers the same URL and token on every call; stores only its hash and a sealed copy; rotates when asked', async () => {
    const id = await draft();
    const first = await webhook(id);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const { token, url } = first.body;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toMatch(new RegExp(`/hooks/wf/${token}$`));
    expect(first.body).toEqual({ url, token, requireSignature: false });
    const again = await webhook(id);
    expect(again.body).toEqual(first.body);
    const row = await db().workflow.findUniqueOrThrow({ where: { id } });
    expect(row.webhookTokenHash).toBe(tokenHash(token));
    expect(row.webhookTokenEnc).not.toContain(token);
    const detail = await call('GET', `/api/v1/workflows/${id}`, { cookie: owner.cookie });
    expect(detail.body.workflow.webhook).toEqual({ configured: true, requireSignature: false });
    expect(JSON.stringify(detail.body)).not.toContain(token);
    const rotated = await webhook(id, { rotate: true });
    expect(rotated.body.token).not.toBe(token);
    expect((await db().workflow.findUniqueOrThrow({ where: { id } })).webhookTokenHash).toBe(tokenHash(rotated.body.token));
  });

  it('returns a signing secret only when it is created or rotated; false removes it', async () => {
    const id = await draft();
    const created = await webhook(id, { requireSignature: true });
    expect(created.body).toMatchObject({ requireSignature: true, secret: expect.any(String) });
    const again = await webhook(id);
    expect(again.body.requireSignature).toBe(true);
    expect(again.body.secret).toBeUndefined();
    expect(again.body.token).toBe(created.body.token);
    const rotated = await webhook(id, { rotate: true });
    expect(rotated.body.secret).toEqual(expect.any(String));
    expect(rotated.body.secret).not.toBe(created.body.secret);
    const off = await webhook(id, { requireSignature: false });
    expect(off.body).toEqual({ url: rotated.body.url, token: rotated.body.token, requireSignature: false });
    expect((await db().workflow.findUniqueOrThrow({ where: { id } })).webhookSecretEnc).toBeNull();
  });

  it('answers 409 credentials.encryption_disabled without an instance key', async () => {
    const id = await draft();
    const saved = process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEY;
    resetConfigForTests();
    try {
      const response = await webhook(id);
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('credentials.encryption_disabled');
    } finally {
      process.env.ENCRYPTION_KEY = saved;
      resetConfigForTests();
    }
  });
});
