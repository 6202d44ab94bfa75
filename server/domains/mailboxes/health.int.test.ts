/**
 * GET /api/v1/mailboxes/health: each mailbox's state and figures, the member's own only, `scope=org`
 * for administrators, no secret in the answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sealJson } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { linkImapCredential } from '../../testing/mailbox-fixtures';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
let admin: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
  admin = await createMember({ name: 'Admin', role: 'admin' });
});

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

type Health = { mailboxId: string; state: string; [key: string]: unknown };

async function healthOf(member: TestMember, query = ''): Promise<Health[]> {
  const response = await call('GET', `/api/v1/mailboxes/health${query}`, { cookie: member.cookie });
  expect(response.status).toBe(200);
  return response.body.mailboxes as Health[];
}

describe('GET /api/v1/mailboxes/health', () => {
  it('answers every field for a healthy IDLE-watched mailbox, with the dispatch lag of mail mirrored but not journaled', async () => {
    const mailbox = await createMailbox(owner, { address: 'healthy@example.test' });
    const synced = minutesAgo(2);
    const beat = minutesAgo(1);
    await db().mailbox.update({
      where: { id: mailbox.id },
      data: { initialSyncDoneAt: minutesAgo(60), lastSuccessfulSyncAt: synced, lastDeltaAt: synced, watchMode: 'idle', watchAliveAt: beat },
    });
    const first = await createMessage(mailbox);
    const second = await createMessage(mailbox);
    const oldest = minutesAgo(3);
    await db().mailDispatchQueue.createMany({
      data: [
        { messageId: first.id, mailboxId: mailbox.id, enqueuedAt: oldest },
        { messageId: second.id, mailboxId: mailbox.id },
      ],
    });
    const row = (await healthOf(owner)).find((entry) => entry.mailboxId === mailbox.id);
    expect(row).toEqual({
      mailboxId: mailbox.id,
      memberId: owner.id,
      address: 'healthy@example.test',
      provider: 'imap',
      status: 'active',
      state: 'healthy',
      lastSuccessfulSyncAt: synced.toISOString(),
      lastDeltaAt: synced.toISOString(),
      watch: { mode: 'idle', alive: true, lastHeartbeatAt: beat.toISOString() },
      lastError: null,
      oauth: null,
      dispatchLag: { pending: 2, oldestEnqueuedAt: oldest.toISOString() },
      bodiesPending: 0,
      stalled: null,
    });
  });

  it('says syncing while the body pass has rows of a headers-first listing to read, with how many, and healthy once it is done', async () => {
    const mailbox = await createMailbox(owner, { address: 'large@example.test' });
    const synced = minutesAgo(1);
    await db().mailbox.update({
      where: { id: mailbox.id },
      data: { initialSyncDoneAt: synced, lastSuccessfulSyncAt: synced, lastDeltaAt: synced, watchMode: 'idle', watchAliveAt: synced },
    });
    const listed = [await createMessage(mailbox), await createMessage(mailbox), await createMessage(mailbox)];
    await db().mailMessage.updateMany({ where: { id: { in: listed.slice(0, 2).map((message) => message.id) } }, data: { bodyPending: true } });
    expect((await healthOf(owner)).find((entry) => entry.mailboxId === mailbox.id)).toMatchObject({ state: 'syncing', bodiesPending: 2 });
    await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id }, data: { bodyPending: false } });
    expect((await healthOf(owner)).find((entry) => entry.mailboxId === mailbox.id)).toMatchObject({ state: 'healthy', bodiesPending: 0 });
  });

  it('says syncing before the first sync, stalled with since and reason, error with the last error, disconnected, and a silent watch as not alive', async () => {
    const syncing = await createMailbox(owner);
    const stalled = await createMailbox(owner);
    const since = minutesAgo(4);
    await db().mailbox.update({
      where: { id: stalled.id },
      data: { initialSyncDoneAt: minutesAgo(90), watchMode: 'idle', watchAliveAt: minutesAgo(30), stalledSince: since, stalledReason: 'watch_silent' },
    });
    const failing = await createMailbox(owner, { status: 'error' });
    await db().mailbox.update({
      where: { id: failing.id },
      data: { lastError: { kind: 'timeout', code: 'imap.unreachable', message: 'The server stopped answering.', at: '2026-01-02T03:04:05.000Z', operation: 'sync' } },
    });
    const gone = await createMailbox(owner, { status: 'disconnected' });
    const rows = new Map((await healthOf(owner)).map((entry) => [entry.mailboxId, entry]));
    expect(rows.get(syncing.id)).toMatchObject({ state: 'syncing', watch: { mode: null, alive: false, lastHeartbeatAt: null }, stalled: null });
    expect(rows.get(stalled.id)).toMatchObject({ state: 'stalled', watch: { mode: 'idle', alive: false }, stalled: { since: since.toISOString(), reason: 'watch_silent' } });
    expect(rows.get(failing.id)).toMatchObject({
      state: 'error',
      lastError: { kind: 'timeout', code: 'imap.unreachable', message: 'The server stopped answering.', at: '2026-01-02T03:04:05.000Z' },
    });
    expect(rows.get(gone.id)).toMatchObject({ state: 'disconnected', status: 'disconnected' });
  });

  it('gives an OAuth mailbox its token expiry and last refresh, and never a token', async () => {
    const mailbox = await createMailbox(owner, { provider: 'mail_provider_a' });
    const credentialId = crypto.randomUUID();
    const expiresAt = '2026-12-31T10:00:00.000Z';
    await db().credential.create({
      data: {
        id: credentialId,
        memberId: owner.id,
        type: 'mail_provider_a_oauth',
        name: mailbox.address,
        dataEnc: sealJson({ accessToken: 'access-secret-xyz', refreshToken: 'refresh-secret-xyz', expiresAt, tokenType: 'Bearer' }, `credential:${credentialId}`),
      },
    });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { credentialId } });
    const credential = await db().credential.findUniqueOrThrow({ where: { id: credentialId } });
    const response = await call('GET', '/api/v1/mailboxes/health', { cookie: owner.cookie });
    expect(JSON.stringify(response.body)).not.toContain('secret-xyz');
    const row = (response.body.mailboxes as Health[]).find((entry) => entry.mailboxId === mailbox.id);
    expect(row?.oauth).toEqual({ expiresAt, lastRefreshedAt: credential.updatedAt.toISOString() });
  });

  it('gives an IMAP mailbox no oauth block, and never its password', async () => {
    const mailbox = await createMailbox(owner);
    await linkImapCredential(mailbox, 'imap-password-xyz');
    const response = await call('GET', '/api/v1/mailboxes/health', { cookie: owner.cookie });
    expect(JSON.stringify(response.body)).not.toContain('imap-password-xyz');
    expect((response.body.mailboxes as Health[]).find((entry) => entry.mailboxId === mailbox.id)?.oauth).toBeNull();
  });

  it('never lists another member’s mailbox to a member', async () => {
    const theirs = await createMailbox(other);
    const ids = (await healthOf(owner)).map((entry) => entry.mailboxId);
    expect(ids).not.toContain(theirs.id);
    expect((await healthOf(other)).map((entry) => entry.mailboxId)).toEqual([theirs.id]);
  });

  it('refuses scope=org to a member with auth.forbidden, and lists every member’s mailboxes to an administrator', async () => {
    const refused = await call('GET', '/api/v1/mailboxes/health?scope=org', { cookie: owner.cookie });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('auth.forbidden');
    const theirs = await createMailbox(other);
    const everyone = await healthOf(admin, '?scope=org');
    expect(everyone.map((entry) => entry.mailboxId)).toContain(theirs.id);
    expect(new Set(everyone.map((entry) => entry.memberId))).toEqual(new Set([owner.id, other.id]));
    // The administrator's own scope is their own mailboxes (none).
    expect(await healthOf(admin)).toEqual([]);
  });

  it('answers 400 for an unknown scope', async () => {
    const response = await call('GET', '/api/v1/mailboxes/health?scope=everyone', { cookie: owner.cookie });
    expect(response.status).toBe(400);
  });

  it('answers to a key with mailboxes:read, and refuses a key without it', async () => {
    const { secret } = await createApiKeyFor(owner, ['mailboxes:read']);
    expect((await call('GET', '/api/v1/mailboxes/health', { key: secret })).status).toBe(200);
    const { secret: tables } = await createApiKeyFor(owner, ['tables:read']);
    const refused = await call('GET', '/api/v1/mailboxes/health', { key: tables });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'mailboxes:read' } });
  });
});
