/**
 * Mailboxes in the Member resource and in a member's deactivation (spec, States and transitions:
 * deactivate → mailboxes paused; reactivate → they stay disconnected).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { linkImapCredential, linkOAuthGrant, queuedJobs } from '../../testing/mailbox-fixtures';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin', name: 'Admin' });
});

async function listedMember(id: string) {
  const response = await call('GET', '/api/v1/admin/members', { cookie: admin.cookie });
  return response.body.members.find((member: { id: string }) => member.id === id);
}

describe('mailboxCount', () => {
  it('counts every mailbox of the member, whatever its status, in the admin list and in /auth/me', async () => {
    const member = await createMember();
    expect((await listedMember(member.id)).mailboxCount).toBe(0);
    await createMailbox(member, { status: 'active' });
    await createMailbox(member, { status: 'error' });
    const off = await createMailbox(member, { status: 'disconnected' });
    await createMailbox(admin);
    expect((await listedMember(member.id)).mailboxCount).toBe(3);
    expect((await call('GET', '/api/v1/auth/me', { cookie: member.cookie })).body.member.mailboxCount).toBe(3);
    // A deleted mailbox no longer counts.
    await call('DELETE', `/api/v1/mailboxes/${off.id}`, { cookie: member.cookie });
    expect((await listedMember(member.id)).mailboxCount).toBe(2);
  });
});

describe('deactivating a member', () => {
  it('disconnects their connected mailboxes in the same change, removes their secrets and counts them', async () => {
    const member = await createMember();
    const active = await createMailbox(member, { status: 'active', address: 'a@example.test' });
    const failing = await createMailbox(member, { status: 'error', provider: 'mail_provider_b', address: 'b@example.test' });
    const already = await createMailbox(member, { status: 'disconnected', address: 'c@example.test' });
    const password = await linkImapCredential(active);
    const grant = await linkOAuthGrant(failing, ['mail', 'drive']);
    const bystander = await createMailbox(admin);

    const response = await call('POST', `/api/v1/admin/members/${member.id}/deactivate`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body.effects).toEqual({ sessionsRevoked: 1, mailboxesPaused: 2, workflowsUnpublished: 0 });
    expect(response.body.member).toMatchObject({ status: 'suspended', mailboxCount: 3 });

    for (const mailbox of [active, failing, already]) {
      expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe('disconnected');
    }
    expect(await db().credential.findUnique({ where: { id: password } })).toBeNull();
    expect((await db().credential.findUniqueOrThrow({ where: { id: grant } })).capabilities).toEqual(['drive']);
    expect(await queuedJobs(active.id)).toEqual([{ task: 'mail.release', key: null, payload: { mailboxId: active.id } }]);
    expect(await queuedJobs(already.id)).toEqual([]);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: bystander.id } })).status).toBe('active');
    const notices = await db().notification.findMany({ where: { memberId: member.id, kind: 'mailbox.removed' } });
    expect(notices.map((notice) => (notice.params as { address: string }).address).sort()).toEqual(['a@example.test', 'b@example.test']);
    const audits = await db().auditEntry.findMany({ where: { action: 'mailbox.disconnected', targetId: { in: [active.id, failing.id] } } });
    expect(audits).toHaveLength(2);
    expect(audits.every((entry) => entry.actorMemberId === admin.id)).toBe(true);
  });

  it('reactivation leaves the mailboxes disconnected', async () => {
    const member = await createMember();
    const mailbox = await createMailbox(member);
    await call('POST', `/api/v1/admin/members/${member.id}/deactivate`, { cookie: admin.cookie });
    const response = await call('POST', `/api/v1/admin/members/${member.id}/reactivate`, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.body.member).toMatchObject({ status: 'active', mailboxCount: 1 });
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe('disconnected');
  });

  it('a refused deactivation (oneself) disconnects nothing', async () => {
    const mailbox = await createMailbox(admin);
    const response = await call('POST', `/api/v1/admin/members/${admin.id}/deactivate`, { cookie: admin.cookie });
    expect(response.body.error.code).toBe('governance.self_target');
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe('active');
  });
});
