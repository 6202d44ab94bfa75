/**
 * The workflows a mailbox or a member carries, as other domains see them: removal-impact's linked
 * workflows and pending executions, disconnect's `disarmedWorkflows`, the member's
 * `publishedWorkflowCount` and deactivation's `workflowsUnpublished`. The trigger facts are written
 * on the version rows (as publishing records them), so no mail node type is needed here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
});

/** A published workflow whose version watches `trigger` mailboxes (mail trigger) and uses `used` ones. */
async function linked(member: TestMember, name: string, facts: { trigger?: string[]; used?: string[]; mail?: boolean }) {
  const { workflow, version } = await createWorkflow(member, { name });
  await db().workflowVersion.update({
    where: { id: version!.id },
    data: { triggerType: facts.mail === false ? 'webhook' : 'mail', triggerMailboxIds: facts.trigger ?? [], usedMailboxIds: facts.used ?? [] },
  });
  return workflow;
}

const isPublished = async (id: string) => (await db().workflow.findUniqueOrThrow({ where: { id } })).publishedVersionId !== null;

describe('mailbox removal-impact and disconnect', () => {
  it('lists the published workflows whose trigger watches the mailbox (explicitly or all mailboxes) or that use it, and their pending executions', async () => {
    const member = await createMember();
    const box = await createMailbox(member);
    const otherBox = await createMailbox(member);
    const only = await linked(member, 'A only', { trigger: [box.id] });
    const all = await linked(member, 'B all', { trigger: [] });
    const sender = await linked(member, 'C sender', { mail: false, used: [box.id] });
    await linked(member, 'D elsewhere', { trigger: [otherBox.id] });
    await linked(member, 'E webhook', { mail: false });
    await createWorkflow(member, { name: 'F draft', publish: false });
    const version = (await db().workflowVersion.findFirstOrThrow({ where: { workflowId: only.id } })).id;
    for (const status of ['queued', 'running', 'waiting', 'succeeded', 'failed']) {
      await db().execution.create({ data: { memberId: member.id, workflowId: only.id, workflowVersionId: version, status, timeoutMs: 60_000 } });
    }

    const impact = await call('GET', `/api/v1/mailboxes/${box.id}/removal-impact`, { cookie: member.cookie });
    expect(impact.status).toBe(200);
    expect(impact.body.workflows).toEqual([
      { id: only.id, name: 'A only', link: 'trigger' },
      { id: all.id, name: 'B all', link: 'trigger' },
      { id: sender.id, name: 'C sender', link: 'sender' },
    ]);
    expect(impact.body.pendingExecutions).toBe(3);

    // Disconnect unpublishes those that cannot work without it: A (watches only it) and C (sends from it).
    const disconnect = await call('POST', `/api/v1/mailboxes/${box.id}/disconnect`, { cookie: member.cookie, body: {} });
    expect(disconnect.status).toBe(200);
    expect(disconnect.body.disarmedWorkflows).toBe(2);
    expect([await isPublished(only.id), await isPublished(all.id), await isPublished(sender.id)]).toEqual([false, true, false]);
    const notice = await db().notification.findFirstOrThrow({ where: { memberId: member.id, kind: 'mailbox.removed' } });
    expect((notice.params as { unpublishedWorkflows: number }).unpublishedWorkflows).toBe(2);
    // Runs in progress are not cancelled.
    expect(await db().execution.count({ where: { workflowId: only.id, status: { in: ['queued', 'running', 'waiting'] } } })).toBe(3);
    const again = await call('POST', `/api/v1/mailboxes/${box.id}/disconnect`, { cookie: member.cookie, body: {} });
    expect(again.body.disarmedWorkflows).toBe(0);
  });
});

describe('members', () => {
  it('counts published workflows and unpublishes them all on deactivation', async () => {
    const member = await createMember();
    const box = await createMailbox(member);
    await linked(member, 'Tied to the mailbox', { trigger: [box.id] });
    const free = (await createWorkflow(member, { name: 'Webhook' })).workflow;
    await createWorkflow(member, { name: 'Draft', publish: false });
    const listed = async () => (await call('GET', '/api/v1/admin/members', { cookie: admin.cookie })).body.members.find((m: { id: string }) => m.id === member.id);
    expect((await listed()).publishedWorkflowCount).toBe(2);

    const response = await call('POST', `/api/v1/admin/members/${member.id}/deactivate`, { cookie: admin.cookie, body: {} });
    expect(response.status).toBe(200);
    expect(response.body.effects).toMatchObject({ mailboxesPaused: 1, workflowsUnpublished: 2 });
    expect(response.body.member.publishedWorkflowCount).toBe(0);
    expect(await isPublished(free.id)).toBe(false);
    const again = await call('POST', `/api/v1/admin/members/${member.id}/deactivate`, { cookie: admin.cookie, body: {} });
    expect(again.body.effects.workflowsUnpublished).toBe(0);
  });
});
