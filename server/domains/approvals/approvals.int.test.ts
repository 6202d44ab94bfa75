/**
 * Approvals (spec: Approval, States: Approval, Approvals routes, the `approval.pending` notification):
 * what an approval step asks for, the list and the decision from the application, expiry and cancel.
 * Runs here are rows as the engine leaves them (a waiting step); server/engine/run/approvals.int.test.ts
 * runs the real engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { cancelExecutions } from '../../engine/run/cancel';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { expireApproval, requestApproval, type ApprovalRequest } from './engine-api';
import { hashLinkToken } from './tokens';

await useTestDatabase();

let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  member = await createMember({ name: 'Ann Owner' });
  other = await createMember();
});

/** A run waiting at step `ask` (as the engine leaves it), optionally started by a message. */
async function waitingRun(owner: Pick<TestMember, 'id'>, options: { message?: { id: string; mailboxId: string } } = {}) {
  const { workflow, version } = await createWorkflow(owner, { name: 'Invoices' });
  const execution = await createExecution(owner, {
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    status: 'waiting',
    messageId: options.message?.id ?? null,
    mailboxId: options.message?.mailboxId ?? null,
  });
  await createStep(execution.id, { nodeId: 'ask', nodeType: 'approval.request@1', status: 'waiting', data: null, output: null });
  return execution;
}

async function ask(owner: Pick<TestMember, 'id'>, request: Partial<ApprovalRequest> = {}, options: Parameters<typeof waitingRun>[1] = {}) {
  const execution = await waitingRun(owner, options);
  const outcome = await requestApproval(
    { executionId: execution.id, memberId: owner.id },
    { nodeId: 'ask', title: 'Pay invoice 42', details: 'Amount: 1,200 EUR', expiresAt: new Date(Date.now() + 3_600_000), approverEmails: [], mailboxId: null, ...request },
  );
  return { execution, approvalId: outcome.approvalId, outcome };
}

describe('an approval step asks for a decision', () => {
  it('writes the approval, the approval.pending notification (subject of the trigger mail) and nothing to send without approvers', async () => {
    const mailbox = await createMailbox(member);
    const message = await createMessage(mailbox, { subject: `Invoice ${'x'.repeat(200)}`, fromEmail: 'vendor@example.test', fromName: 'Vendor' });
    const { execution, approvalId, outcome } = await ask(member, {}, { message: { id: message.id, mailboxId: mailbox.id } });
    expect(outcome).toMatchObject({ status: 'pending', decidedBy: null, reason: null });
    const row = await db().approval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(row).toMatchObject({ memberId: member.id, executionId: execution.id, nodeId: 'ask', workflowName: 'Invoices', status: 'pending', triggerMessageId: message.id });
    expect(row.linkTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const notification = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'approval.pending', params: { path: ['approvalId'], equals: approvalId } } });
    expect(notification.params).toEqual({ approvalId, workflowName: 'Invoices', subject: `Invoice ${'x'.repeat(200)}`.slice(0, 120) });
    expect(notification.link).toBe('/approvals');
    expect(await db().outboundMessage.count({ where: { approvalId } })).toBe(0);
  });

  it('is idempotent on the run and node: a second ask answers the first approval and sends nothing more', async () => {
    await createMailbox(member);
    const { execution, approvalId } = await ask(member, { approverEmails: ['boss@example.test'] });
    const again = await requestApproval({ executionId: execution.id, memberId: member.id }, { nodeId: 'ask', title: 'Other', details: null, expiresAt: new Date(Date.now() + 60_000), approverEmails: ['boss@example.test'], mailboxId: null });
    expect(again.approvalId).toBe(approvalId);
    expect(await db().approval.count({ where: { executionId: execution.id } })).toBe(1);
    expect(await db().outboundMessage.count({ where: { approvalId } })).toBe(1);
    expect(await db().notification.count({ where: { kind: 'approval.pending', params: { path: ['approvalId'], equals: approvalId } } })).toBe(1);
  });

  it('emails the approvers through the send pipeline: origin approval, sent without review, two links, bilingual, the token stored only as its hash', async () => {
    const owner = await createMember();
    const first = await createMailbox(owner, { address: 'owner@example.test' });
    const { approvalId } = await ask(owner, { approverEmails: ['boss@example.test', 'cfo@example.test'] });
    const item = await db().outboundMessage.findFirstOrThrow({ where: { approvalId } });
    expect(item).toMatchObject({ memberId: owner.id, mailboxId: first.id, origin: 'approval', mode: 'send', reviewStatus: 'none', sendStatus: 'pending', toAddrs: ['boss@example.test', 'cfo@example.test'], nodeId: 'ask' });
    const approve = /\/api\/v1\/approvals\/t\/([A-Za-z0-9_-]{43})\/approve/.exec(item.bodyText ?? '');
    expect(approve).not.toBeNull();
    expect(item.bodyText).toContain(`/api/v1/approvals/t/${approve![1]}/reject`);
    expect(item.bodyHtml).toContain(`/api/v1/approvals/t/${approve![1]}/approve`);
    expect(item.bodyText).toContain('Approuver');
    const row = await db().approval.findUniqueOrThrow({ where: { id: approvalId } });
    expect(row.linkTokenHash).toBe(hashLinkToken(approve![1]));
    expect(JSON.stringify(row)).not.toContain(approve![1]);
    // The send job was added with the item.
    const jobs = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'mail.send' AND j.payload->>'outboundId' = ${item.id}`;
    expect(Number(jobs[0].count)).toBe(1);
  });

  it('sends from the run’s mailbox when it has one, and from the mailbox named when given', async () => {
    const owner = await createMember();
    await createMailbox(owner);
    const runBox = await createMailbox(owner);
    const named = await createMailbox(owner);
    const message = await createMessage(runBox);
    const fromRun = await ask(owner, { approverEmails: ['a@example.test'] }, { message: { id: message.id, mailboxId: runBox.id } });
    expect((await db().outboundMessage.findFirstOrThrow({ where: { approvalId: fromRun.approvalId } })).mailboxId).toBe(runBox.id);
    const fromNamed = await ask(owner, { approverEmails: ['a@example.test'], mailboxId: named.id });
    expect((await db().outboundMessage.findFirstOrThrow({ where: { approvalId: fromNamed.approvalId } })).mailboxId).toBe(named.id);
  });

  it('fails permanently with mail.mailbox_required when approvers are given and there is no mailbox (nothing written)', async () => {
    const owner = await createMember();
    const execution = await waitingRun(owner);
    await expect(
      requestApproval({ executionId: execution.id, memberId: owner.id }, { nodeId: 'ask', title: 'x', details: null, expiresAt: new Date(Date.now() + 60_000), approverEmails: ['a@example.test'], mailboxId: null }),
    ).rejects.toMatchObject({ code: 'mail.mailbox_required', kind: 'permanent' });
    const foreign = await createMailbox(other);
    await expect(
      requestApproval({ executionId: execution.id, memberId: owner.id }, { nodeId: 'ask', title: 'x', details: null, expiresAt: new Date(Date.now() + 60_000), approverEmails: ['a@example.test'], mailboxId: foreign.id }),
    ).rejects.toMatchObject({ code: 'mail.mailbox_required' });
    expect(await db().approval.count({ where: { executionId: execution.id } })).toBe(0);
  });

  it('fails with mail.mailbox_not_active when the mailbox named is disconnected', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner, { status: 'disconnected' });
    const execution = await waitingRun(owner);
    await expect(
      requestApproval({ executionId: execution.id, memberId: owner.id }, { nodeId: 'ask', title: 'x', details: null, expiresAt: new Date(Date.now() + 60_000), approverEmails: ['a@example.test'], mailboxId: box.id }),
    ).rejects.toMatchObject({ code: 'mail.mailbox_not_active' });
  });
});

describe('GET /api/v1/approvals', () => {
  it('lists pending approvals newest first in the spec’s shape, with the trigger mail from the mirror, paged by cursor', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox, { subject: 'Invoice March', fromEmail: 'vendor@example.test', fromName: 'Vendor' });
    const a = await ask(owner, {}, { message: { id: message.id, mailboxId: mailbox.id } });
    const b = await ask(owner);
    const c = await ask(owner);
    await ask(other);
    const first = await call('GET', '/api/v1/approvals?limit=2', { cookie: owner.cookie });
    expect(first.status).toBe(200);
    expect(first.body.approvals.map((item: { id: string }) => item.id)).toEqual([c.approvalId, b.approvalId]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call('GET', `/api/v1/approvals?limit=2&cursor=${first.body.nextCursor}`, { cookie: owner.cookie });
    expect(second.body).toEqual({
      approvals: [
        {
          id: a.approvalId,
          status: 'pending',
          title: 'Pay invoice 42',
          details: 'Amount: 1,200 EUR',
          executionId: a.execution.id,
          workflowId: a.execution.workflowId,
          workflowName: 'Invoices',
          nodeId: 'ask',
          trigger: { messageId: message.id, fromName: 'Vendor', fromEmail: 'vendor@example.test', subject: 'Invoice March', receivedAt: message.receivedAt.toISOString() },
          expiresAt: expect.any(String),
          decidedBy: null,
          decidedAt: null,
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    expect(first.body.approvals[0].trigger).toBeNull();
  });

  it('filters by status and by triggering message (one page)', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const message = await createMessage(mailbox);
    const fromMail = await ask(owner, {}, { message: { id: message.id, mailboxId: mailbox.id } });
    const decided = await ask(owner);
    await call('POST', `/api/v1/approvals/${decided.approvalId}/decide`, { cookie: owner.cookie, body: { decision: 'reject' } });
    const rejected = await call('GET', '/api/v1/approvals?status=rejected', { cookie: owner.cookie });
    expect(rejected.body.approvals.map((item: { id: string; status: string }) => [item.id, item.status])).toEqual([[decided.approvalId, 'rejected']]);
    const byMessage = await call('GET', `/api/v1/approvals?messageId=${message.id}`, { cookie: owner.cookie });
    expect(byMessage.body).toMatchObject({ approvals: [{ id: fromMail.approvalId }], nextCursor: null });
    expect((await call('GET', `/api/v1/approvals?messageId=${message.id}`, { cookie: other.cookie })).body.approvals).toEqual([]);
  });

  it.each([['limit=101'], ['limit=0'], ['status=done'], ['messageId=nope']])('answers 400 request.bad_request for %s', async (query) => {
    const response = await call('GET', `/api/v1/approvals?${query}`, { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('takes 100 at most and 50 by default; an unreadable cursor gives the first page', async () => {
    expect((await call('GET', '/api/v1/approvals?limit=100', { cookie: member.cookie })).status).toBe(200);
    expect((await call('GET', '/api/v1/approvals?cursor=garbage', { cookie: member.cookie })).status).toBe(200);
  });

  it('needs approvals:read with an API key', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const refused = await call('GET', '/api/v1/approvals', { key: secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('api_key.scope_missing');
    const allowed = await createApiKeyFor(member, ['approvals:read']);
    expect((await call('GET', '/api/v1/approvals', { key: allowed.secret })).status).toBe(200);
  });
});

describe('POST /api/v1/approvals/{id}/decide', () => {
  it('approves, records who decided, and resumes the waiting run in the same transaction (back to queued)', async () => {
    const { execution, approvalId } = await ask(member);
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(200);
    expect(response.body.resumed).toBe(true);
    expect(response.body.approval).toMatchObject({ id: approvalId, status: 'approved', decidedBy: member.email, decidedAt: expect.any(String) });
    expect(await db().execution.findUniqueOrThrow({ where: { id: execution.id } })).toMatchObject({ status: 'queued', waitUntil: null });
    const step = await db().executionStep.findUniqueOrThrow({ where: { executionId_nodeId: { executionId: execution.id, nodeId: 'ask' } } });
    expect(step).toMatchObject({ decision: { decision: 'approve', decidedBy: member.email, via: 'app' } });
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ decidedVia: 'app' });
    const audit = await db().auditEntry.findMany({ where: { action: 'approval.decided', targetId: approvalId } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorKind: 'member', actorMemberId: member.id, targetKind: 'approval', details: { status: 'approved', via: 'app' } });
  });

  it('rejects', async () => {
    const { approvalId } = await ask(member);
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'reject' } });
    expect(response.body).toMatchObject({ approval: { status: 'rejected' }, resumed: true });
  });

  it('a second decision is 409 approval.already_decided and changes nothing', async () => {
    const { approvalId } = await ask(member);
    await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    const again = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'reject' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'approval.already_decided', details: { status: 'approved' } });
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('approved');
  });

  it('replays the first answer for the same Idempotency-Key', async () => {
    const { approvalId } = await ask(member);
    const headers = { 'idempotency-key': `decide-${approvalId}` };
    const first = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' }, headers });
    const replay = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' }, headers });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('another member’s approval is 404 approval.not_found, never 403, and stays pending', async () => {
    const { approvalId } = await ask(other);
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('approval.not_found');
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
    expect((await call('POST', `/api/v1/approvals/00000000-0000-4000-8000-000000000000/decide`, { cookie: member.cookie, body: { decision: 'approve' } })).status).toBe(404);
  });

  it.each([[{ decision: 'maybe' }], [{}], [{ decision: 'approve', extra: 1 }]])('answers 400 for %j', async (body) => {
    const { approvalId } = await ask(member);
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body });
    if (response.status !== 400) expect(response.status).toBe(200); // unknown keys may be stripped
    else expect(response.body.error.code).toBe('request.bad_request');
  });

  it('an approval past its deadline cannot be decided (409, status expired)', async () => {
    const { approvalId } = await ask(member);
    await db().approval.update({ where: { id: approvalId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(409);
    expect(response.body.error.details.status).toBe('expired');
  });

  it('needs approvals:write with an API key', async () => {
    const { approvalId } = await ask(member);
    const { secret } = await createApiKeyFor(member, ['approvals:read']);
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { key: secret, body: { decision: 'approve' } });
    expect(response.status).toBe(403);
  });
});

describe('expiry and cancel', () => {
  it('the deadline expires a pending approval (reason expired, via expiry); a decided one stays as decided', async () => {
    const { execution, approvalId } = await ask(member);
    expect(await expireApproval({ executionId: execution.id, memberId: member.id }, 'ask')).toMatchObject({ status: 'expired', reason: 'expired' });
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'expired', reason: 'expired', decidedVia: 'expiry', decidedAt: expect.any(Date) });
    const decided = await ask(member);
    await call('POST', `/api/v1/approvals/${decided.approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(await expireApproval({ executionId: decided.execution.id, memberId: member.id }, 'ask')).toMatchObject({ status: 'approved', decidedBy: member.email });
  });

  it('cancelling the run expires its pending approvals with reason cancelled; deciding then is 409', async () => {
    const { execution, approvalId } = await ask(member);
    const outcome = await cancelExecutions(member.id, [execution.id]);
    expect(outcome.cancelled).toEqual([execution.id]);
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'expired', reason: 'cancelled', decidedVia: 'cancel' });
    const response = await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'approve' } });
    expect(response.status).toBe(409);
    expect((await call('GET', '/api/v1/approvals?status=expired', { cookie: member.cookie })).body.approvals.map((item: { id: string }) => item.id)).toContain(approvalId);
  });
});
