/**
 * GET /api/v1/me/onboarding (issue 19 §7's "Get started" list): each step ticks itself from what
 * exists, for the caller only; inviting is offered to administrators alone.
 */
import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

const nothingDone = { mailboxConnected: false, templateTried: false, workflowPublished: false, complete: false };

describe('GET /api/v1/me/onboarding', () => {
  it('the onboarding list ticks each step from server state, the caller’s own only', async () => {
    const member = await createMember();
    const other = await createMember();
    expect((await call('GET', '/api/v1/me/onboarding', { cookie: member.cookie })).body).toEqual({ ...nothingDone, teamInvited: null });

    await createMailbox(member);
    const { workflow, version } = await createWorkflow(member);
    await db().evalRun.create({ data: { memberId: member.id, workflowId: workflow.id, versionId: version!.id, baseline: 'none', source: {} } });

    const mine = await call('GET', '/api/v1/me/onboarding', { cookie: member.cookie });
    expect(mine.status).toBe(200);
    // A member is not asked to invite: three steps, all done.
    expect(mine.body).toEqual({ mailboxConnected: true, templateTried: true, workflowPublished: true, teamInvited: null, complete: true });
    // Another member's list is unaffected by what this one did.
    expect((await call('GET', '/api/v1/me/onboarding', { cookie: other.cookie })).body).toEqual({ ...nothingDone, teamInvited: null });
  });

  it('a draft workflow does not count as published', async () => {
    const member = await createMember();
    await createWorkflow(member, { publish: false });
    expect((await call('GET', '/api/v1/me/onboarding', { cookie: member.cookie })).body.workflowPublished).toBe(false);
  });

  it('an administrator is asked to invite the team, ticked once an invitation is sent', async () => {
    const admin = await createMember({ role: 'admin' });
    const before = await call('GET', '/api/v1/me/onboarding', { cookie: admin.cookie });
    expect(before.body).toMatchObject({ teamInvited: false, complete: false });

    const invited = await call('POST', '/api/v1/admin/members/invitations', { cookie: admin.cookie, body: { email: 'newcomer@example.test' } });
    expect(invited.status).toBe(201);
    expect((await call('GET', '/api/v1/me/onboarding', { cookie: admin.cookie })).body.teamInvited).toBe(true);
  });

  it('answers an API key of any scope, and refuses an anonymous caller with 401', async () => {
    const member = await createMember();
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    expect((await call('GET', '/api/v1/me/onboarding', { key: secret })).status).toBe(200);
    const anonymous = await call('GET', '/api/v1/me/onboarding');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('auth.unauthenticated');
  });
});
