/**
 * Issue 25 §2: `GET /api/v1/auth/me` reads the member's figures (mailboxes, published workflows, the
 * generated-password flag) in the statement that authenticates the request, by key and by session:
 * one use of the pool per request, and the same figures as the Member resource elsewhere.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveActor } from '../../core/auth/authenticate';
import { db, pool } from '../../core/db';
import { createApiKeyFor, createMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

afterEach(() => vi.restoreAllMocks());

/** A member with 2 mailboxes (any status), 2 published workflows and a draft, and the generated-password flag. */
async function memberWithFigures() {
  const member = await createMember();
  await createMailbox(member, { status: 'active' });
  await createMailbox(member, { status: 'disconnected' });
  await createWorkflow(member);
  await createWorkflow(member);
  await createWorkflow(member, { publish: false });
  await db().member.update({ where: { id: member.id }, data: { mustChangePassword: true } });
  // Another member's rows never count.
  const other = await createMember();
  await createMailbox(other);
  await createWorkflow(other);
  return member;
}

describe('GET /api/v1/auth/me: the figures from the authentication statement', () => {
  it('by key: counts, flag and identity in the answer, with one use of the pool', async () => {
    const member = await memberWithFigures();
    const { secret } = await createApiKeyFor(member, []);
    const connect = vi.spyOn(pool(), 'connect');
    const response = await call('GET', '/api/v1/auth/me', { key: secret });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      member: expect.objectContaining({ id: member.id, status: 'active', mailboxCount: 2, publishedWorkflowCount: 2 }),
      mustChangePassword: true,
    });
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('by session: the same figures, with one use of the pool', async () => {
    const member = await memberWithFigures();
    const connect = vi.spyOn(pool(), 'connect');
    const response = await call('GET', '/api/v1/auth/me', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ member: { id: member.id, mailboxCount: 2, publishedWorkflowCount: 2 }, mustChangePassword: true });
    expect(connect).toHaveBeenCalledTimes(1);
  });

  it('other routes authenticate without the figures', async () => {
    const member = await memberWithFigures();
    const { secret } = await createApiKeyFor(member, []);
    const actor = await resolveActor(new Headers({ authorization: `Bearer ${secret}` }));
    expect(actor.kind).toBe('apiKey');
    expect('figures' in actor ? actor.figures : undefined).toBeUndefined();
    const withFigures = await resolveActor(new Headers({ authorization: `Bearer ${secret}` }), { figures: true });
    expect('figures' in withFigures ? withFigures.figures : undefined).toEqual({ mailboxCount: 2, publishedWorkflowCount: 2, mustChangePassword: true });
  });
});
