/**
 * The mailbox routes other than connect (connect.int.test.ts talks to real mail servers): list,
 * sync, resync, backfill, removal impact, disconnect, delete; scopes and the 404-not-403 rule.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { blobKeys, blobStore } from '../../core/storage/blob-store';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { clearJobs, linkImapCredential, linkOAuthGrant, queuedJobs } from '../../testing/mailbox-fixtures';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
beforeAll(async () => {
  owner = await createMember({ name: 'Owner' });
  other = await createMember({ name: 'Other' });
});
beforeEach(() => clearJobs());

const dayMs = 24 * 3600 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * dayMs).toISOString();

describe('GET /api/v1/mailboxes', () => {
  it('lists the member’s mailboxes with every field of the spec, and none of another member', async () => {
    const mine = await createMailbox(owner, { address: 'list@example.test' });
    const theirs = await createMailbox(other);
    const response = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const ids = response.body.mailboxes.map((mailbox: { id: string }) => mailbox.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(theirs.id);
    expect(response.body.mailboxes.find((mailbox: { id: string }) => mailbox.id === mine.id)).toEqual({
      id: mine.id,
      provider: 'imap',
      address: 'list@example.test',
      status: 'active',
      syncMode: 'full',
      connectedAt: mine.connectedAt.toISOString(),
      backfill: null,
      lastDeltaAt: null,
      lastSuccessfulSyncAt: null,
      lastError: null,
      messageCount: 0,
      analyzedAt: null,
    });
  });

  it('shows backfill progress and the last error as objects', async () => {
    const mailbox = await createMailbox(owner, { status: 'error' });
    const at = new Date('2026-01-02T03:04:05.000Z');
    await db().mailbox.update({
      where: { id: mailbox.id },
      data: {
        backfillStatus: 'running',
        backfillProgressPct: 42.5,
        backfillOldestAt: at,
        lastDeltaAt: at,
        lastSuccessfulSyncAt: at,
        lastError: { kind: 'auth', code: 'imap.auth_failed', message: 'The IMAP server refused the credentials.', at: at.toISOString(), operation: 'sync', httpStatus: 422 },
      },
    });
    const response = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    const listed = response.body.mailboxes.find((entry: { id: string }) => entry.id === mailbox.id);
    expect(listed).toMatchObject({
      status: 'error',
      backfill: { status: 'running', progressPct: 42.5, oldestSyncedAt: at.toISOString() },
      lastDeltaAt: at.toISOString(),
      lastSuccessfulSyncAt: at.toISOString(),
      lastError: { kind: 'auth', code: 'imap.auth_failed', message: 'The IMAP server refused the credentials.', at: at.toISOString(), operation: 'sync', httpStatus: 422 },
    });
  });

  it('answers to a key with mailboxes:read, and refuses a key without it', async () => {
    const { secret } = await createApiKeyFor(owner, ['mailboxes:read']);
    expect((await call('GET', '/api/v1/mailboxes', { key: secret })).status).toBe(200);
    const { secret: tables } = await createApiKeyFor(owner, ['tables:read']);
    const refused = await call('GET', '/api/v1/mailboxes', { key: tables });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'mailboxes:read' } });
  });

  it('answers 401 without a credential', async () => {
    expect((await call('GET', '/api/v1/mailboxes')).body.error.code).toBe('auth.unauthenticated');
  });
});

describe('another member’s mailbox is 404 mailbox.not_found on every {id} route', () => {
  const routes: [string, (id: string) => string, unknown][] = [
    ['POST', (id) => `/api/v1/mailboxes/${id}/sync`, undefined],
    ['POST', (id) => `/api/v1/mailboxes/${id}/resync`, { since: daysAgo(1) }],
    ['POST', (id) => `/api/v1/mailboxes/${id}/backfill`, {}],
    ['GET', (id) => `/api/v1/mailboxes/${id}/removal-impact`, undefined],
    ['POST', (id) => `/api/v1/mailboxes/${id}/disconnect`, undefined],
    ['DELETE', (id) => `/api/v1/mailboxes/${id}`, undefined],
  ];

  it.each(routes)('%s %s', async (method, path, body) => {
    const theirs = await createMailbox(other);
    await linkImapCredential(theirs);
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-mailbox']) {
      const response = await call(method, path(id), { cookie: owner.cookie, body });
      expect(response.status, id).toBe(404);
      expect(response.body.error.code, id).toBe('mailbox.not_found');
    }
    // Nothing happened to it.
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: theirs.id } });
    expect(row.status).toBe('active');
    expect(row.credentialId).not.toBeNull();
    expect(await queuedJobs(theirs.id)).toEqual([]);
  });
});

describe('POST /api/v1/mailboxes/{id}/sync', () => {
  it('queues a delta sync (202 enqueued: true), then answers enqueued: false while it waits', async () => {
    const mailbox = await createMailbox(owner);
    const first = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ enqueued: true });
    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.sync', key: `mail-sync:${mailbox.id}`, payload: { mailboxId: mailbox.id, reason: 'manual' } }]);
    const second = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie });
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ enqueued: false });
    expect(await queuedJobs(mailbox.id)).toHaveLength(1);
  });

  it.each(['disconnected', 'error'] as const)('refuses a %s mailbox with 409 mailbox.not_active', async (status) => {
    const mailbox = await createMailbox(owner, { status });
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('mailbox.not_active');
    expect(await queuedJobs(mailbox.id)).toEqual([]);
  });

  it('replays with the same Idempotency-Key instead of asking again', async () => {
    const mailbox = await createMailbox(owner);
    const headers = { 'idempotency-key': `sync-${mailbox.id}` };
    const first = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie, headers });
    const replay = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie, headers });
    expect(first.body).toEqual({ enqueued: true });
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ enqueued: true });
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
  });

  it('is refused to a key with mailboxes:read only (403 api_key.scope_missing)', async () => {
    const mailbox = await createMailbox(owner);
    const { secret } = await createApiKeyFor(owner, ['mailboxes:read']);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'mailboxes:write' } });
    const { secret: writer } = await createApiKeyFor(owner, ['mailboxes:write']);
    expect((await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { key: writer })).status).toBe(202);
  });
});

describe('POST /api/v1/mailboxes/{id}/resync', () => {
  it('queues a resync of the window (202 enqueued: true)', async () => {
    const mailbox = await createMailbox(owner);
    const since = daysAgo(30);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ enqueued: true });
    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.resync', key: `mail-resync:${mailbox.id}`, payload: { mailboxId: mailbox.id, since } }]);
  });

  it('replaces a resync still waiting with the newest window', async () => {
    const mailbox = await createMailbox(owner);
    await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since: daysAgo(10) } });
    const since = daysAgo(20);
    await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since } });
    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.resync', key: `mail-resync:${mailbox.id}`, payload: { mailboxId: mailbox.id, since } }]);
  });

  it.each([
    ['in the future', () => new Date(Date.now() + 60_000).toISOString()],
    ['93 days ago', () => daysAgo(93)],
    ['years ago', () => '2001-01-01T00:00:00Z'],
  ])('answers 400 mailbox.resync_window_invalid for a window starting %s', async (_name, since) => {
    const mailbox = await createMailbox(owner);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since: since() } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('mailbox.resync_window_invalid');
    expect(await queuedJobs(mailbox.id)).toEqual([]);
  });

  it('accepts a window starting 91 days ago', async () => {
    const mailbox = await createMailbox(owner);
    expect((await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since: daysAgo(91) } })).status).toBe(202);
  });

  it.each([
    ['no since', {}],
    ['a date without time', { since: '2026-01-01' }],
    ['a number', { since: 12 }],
    ['year 0000', { since: '0000-01-01T00:00:00Z' }],
  ])('answers 400 request.bad_request for %s', async (_name, body) => {
    const mailbox = await createMailbox(owner);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('refuses a mailbox that is not active with 409 mailbox.not_active', async () => {
    const mailbox = await createMailbox(owner, { status: 'disconnected' });
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body: { since: daysAgo(3) } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('mailbox.not_active');
  });
});

describe('POST /api/v1/mailboxes/{id}/backfill', () => {
  it('marks the backfill pending with its window and queues it (202 {enqueued, backfill})', async () => {
    const mailbox = await createMailbox(owner);
    const since = daysAgo(400);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie, body: { since } });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({ enqueued: true, backfill: { status: 'pending', progressPct: null, oldestSyncedAt: null } });
    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(row.backfillStatus).toBe('pending');
    expect(row.backfillSince?.toISOString()).toBe(since);
    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.backfill', key: `mail-backfill:${mailbox.id}`, payload: { mailboxId: mailbox.id } }]);
    const listed = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    expect(listed.body.mailboxes.find((entry: { id: string }) => entry.id === mailbox.id).backfill).toEqual({ status: 'pending', progressPct: null, oldestSyncedAt: null });
  });

  it('without since (or null) goes back to the beginning; asking the same again changes nothing', async () => {
    const mailbox = await createMailbox(owner);
    const first = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie });
    expect(first.body.enqueued).toBe(true);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).backfillSince).toBeNull();
    const again = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie, body: { since: null } });
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ enqueued: false, backfill: { status: 'pending', progressPct: null, oldestSyncedAt: null } });
  });

  it('restarts a running backfill as pending when another window is asked', async () => {
    const mailbox = await createMailbox(owner);
    await db().mailbox.update({ where: { id: mailbox.id }, data: { backfillStatus: 'running', backfillProgressPct: 40, backfillSince: null } });
    const since = daysAgo(100);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie, body: { since } });
    expect(response.body).toEqual({ enqueued: true, backfill: { status: 'pending', progressPct: null, oldestSyncedAt: null } });
  });

  it('refuses a since in the future (400) and a mailbox that is not active (409)', async () => {
    const mailbox = await createMailbox(owner);
    const future = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie, body: { since: new Date(Date.now() + dayMs).toISOString() } });
    expect(future.status).toBe(400);
    expect(future.body.error.code).toBe('request.bad_request');
    const off = await createMailbox(owner, { status: 'disconnected' });
    const refused = await call('POST', `/api/v1/mailboxes/${off.id}/backfill`, { cookie: owner.cookie, body: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('mailbox.not_active');
  });
});

describe('GET /api/v1/mailboxes/{id}/removal-impact', () => {
  it('counts the mirrored messages; no workflow exists yet', async () => {
    const mailbox = await createMailbox(owner, { address: 'impact@example.test' });
    await createMessage(mailbox);
    await createMessage(mailbox);
    const response = await call('GET', `/api/v1/mailboxes/${mailbox.id}/removal-impact`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mailboxId: mailbox.id, address: 'impact@example.test', messages: 2, pendingExecutions: 0, workflows: [] });
  });
});

describe('POST /api/v1/mailboxes/{id}/disconnect', () => {
  it('stops sync, deletes the IMAP password, keeps the history, notifies and audits; a second call answers none', async () => {
    const mailbox = await createMailbox(owner, { address: 'leaving@example.test' });
    const credentialId = await linkImapCredential(mailbox);
    await createMessage(mailbox);
    await db().mailbox.update({ where: { id: mailbox.id }, data: { leaseOwner: 'runner-1', leaseUntil: new Date(Date.now() + 60_000) } });
    await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie });

    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mailboxId: mailbox.id, address: 'leaving@example.test', disarmedWorkflows: 0, credential: 'deleted' });

    const row = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } });
    expect(row).toMatchObject({ status: 'disconnected', credentialId: null, leaseOwner: null, leaseUntil: null });
    expect(row.disconnectedAt).toBeInstanceOf(Date);
    expect(await db().credential.findUnique({ where: { id: credentialId } })).toBeNull();
    // The waiting sync is dropped; every runner is told to let go.
    expect(await queuedJobs(mailbox.id)).toEqual([{ task: 'mail.release', key: null, payload: { mailboxId: mailbox.id } }]);
    // History stays readable.
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(1);
    const impact = await call('GET', `/api/v1/mailboxes/${mailbox.id}/removal-impact`, { cookie: owner.cookie });
    expect(impact.body.messages).toBe(1);

    const notification = await db().notification.findFirstOrThrow({ where: { memberId: owner.id, kind: 'mailbox.removed' }, orderBy: { createdAt: 'desc' } });
    expect(notification.params).toEqual({ mailboxId: mailbox.id, address: 'leaving@example.test', mode: 'disconnected', unpublishedWorkflows: 0 });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'mailbox.disconnected', targetId: mailbox.id } });
    expect(audit.actorMemberId).toBe(owner.id);
    expect(audit.details).toMatchObject({ credential: 'deleted' });

    const again = await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ mailboxId: mailbox.id, address: 'leaving@example.test', disarmedWorkflows: 0, credential: 'none' });
    expect(await db().notification.count({ where: { memberId: owner.id, kind: 'mailbox.removed', params: { path: ['mailboxId'], equals: mailbox.id } } })).toBe(1);
    const refused = await call('POST', `/api/v1/mailboxes/${mailbox.id}/sync`, { cookie: owner.cookie });
    expect(refused.body.error.code).toBe('mailbox.not_active');
  });

  it('deletes an OAuth grant used only for mail', async () => {
    const mailbox = await createMailbox(owner, { provider: 'mail_provider_a' });
    const grant = await linkOAuthGrant(mailbox, ['mail']);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    expect(response.body.credential).toBe('deleted');
    expect(await db().credential.findUnique({ where: { id: grant } })).toBeNull();
  });

  it('keeps an OAuth grant that serves another capability, without mail', async () => {
    const mailbox = await createMailbox(owner, { provider: 'mail_provider_b' });
    const grant = await linkOAuthGrant(mailbox, ['mail', 'calendar']);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    expect(response.body.credential).toBe('kept');
    expect((await db().credential.findUniqueOrThrow({ where: { id: grant } })).capabilities).toEqual(['calendar']);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).credentialId).toBeNull();
    expect((await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie })).body.credential).toBe('none');
  });

  it('answers none when nothing was stored', async () => {
    const mailbox = await createMailbox(owner);
    expect((await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie })).body.credential).toBe('none');
  });

  it('disconnects a mailbox in error too', async () => {
    const mailbox = await createMailbox(owner, { status: 'error' });
    await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe('disconnected');
  });

  it('is refused to a key with mailboxes:read only', async () => {
    const mailbox = await createMailbox(owner);
    const { secret } = await createApiKeyFor(owner, ['mailboxes:read']);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { key: secret });
    expect(response.body.error.code).toBe('api_key.scope_missing');
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).status).toBe('active');
  });
});

describe('DELETE /api/v1/mailboxes/{id}', () => {
  it('removes the mailbox, its whole mirror and the attachment blobs; notifies and audits', async () => {
    const mailbox = await createMailbox(owner, { address: 'gone@example.test' });
    const credentialId = await linkImapCredential(mailbox);
    const keep = await createMailbox(owner);
    const kept = await createMessage(keep);
    await db().mailAttachment.create({ data: { messageId: kept.id, position: 0, filename: 'k.txt', mime: 'text/plain', size: 1, disposition: 'attachment', blobKey: blobKeys.attachment(kept.id, 0) } });
    await blobStore().put(blobKeys.attachment(kept.id, 0), Buffer.from('k'));
    const messages = [];
    for (let index = 0; index < 3; index++) messages.push(await createMessage(mailbox, { subject: `m${index}` }));
    for (const message of messages) {
      const key = blobKeys.attachment(message.id, 0);
      await db().mailAttachment.create({ data: { messageId: message.id, position: 0, filename: 'a.pdf', mime: 'application/pdf', size: 3, disposition: 'attachment', blobKey: key } });
      await blobStore().put(key, Buffer.from('pdf'));
    }
    await db().mailOperation.create({ data: { memberId: owner.id, mailboxId: mailbox.id, messageId: messages[0]!.id, action: 'archive' } });

    const response = await call('DELETE', `/api/v1/mailboxes/${mailbox.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ mailboxId: mailbox.id, address: 'gone@example.test', deletedMessages: 3, credential: 'deleted' });

    expect(await db().mailbox.findUnique({ where: { id: mailbox.id } })).toBeNull();
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    expect(await db().mailThread.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    expect(await db().mailFolder.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    expect(await db().mailOperation.count({ where: { mailboxId: mailbox.id } })).toBe(0);
    expect(await db().credential.findUnique({ where: { id: credentialId } })).toBeNull();
    for (const message of messages) expect(await blobStore().get(blobKeys.attachment(message.id, 0))).toBeNull();
    // Another mailbox's mirror is untouched.
    expect(await blobStore().get(blobKeys.attachment(kept.id, 0))).toEqual(Buffer.from('k'));
    expect(await db().mailMessage.count({ where: { mailboxId: keep.id } })).toBe(1);

    const notification = await db().notification.findFirstOrThrow({ where: { memberId: owner.id, kind: 'mailbox.removed', params: { path: ['mailboxId'], equals: mailbox.id } } });
    expect(notification.params).toEqual({ mailboxId: mailbox.id, address: 'gone@example.test', mode: 'deleted', unpublishedWorkflows: 0 });
    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'mailbox.deleted', targetId: mailbox.id } });
    expect(audit.details).toMatchObject({ deletedMessages: 3, credential: 'deleted' });

    const again = await call('DELETE', `/api/v1/mailboxes/${mailbox.id}`, { cookie: owner.cookie });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('mailbox.not_found');
    const listed = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    expect(listed.body.mailboxes.map((entry: { id: string }) => entry.id)).not.toContain(mailbox.id);
  });

  it('deletes a mirror larger than one batch', async () => {
    const mailbox = await createMailbox(owner, { folders: false });
    const thread = await db().mailThread.create({ data: { mailboxId: mailbox.id, lastMessageAt: new Date() } });
    const count = 2_345;
    await db().$executeRaw`
      INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, received_at, ingested_via, updated_at)
      SELECT gen_random_uuid(), ${mailbox.id}::uuid, ${thread.id}::uuid, 'INBOX' || chr(10) || '1' || chr(10) || n, 'INBOX', now(), 'initial', now()
      FROM generate_series(1, ${count}) AS n`;
    const response = await call('DELETE', `/api/v1/mailboxes/${mailbox.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body.deletedMessages).toBe(count);
    expect(response.body.credential).toBe('none');
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(0);
  });
});

describe('state moves', () => {
  it('active → disconnected: sync, resync and backfill answer 409; the history is still listed', async () => {
    const mailbox = await createMailbox(owner);
    await createMessage(mailbox);
    await call('POST', `/api/v1/mailboxes/${mailbox.id}/disconnect`, { cookie: owner.cookie });
    for (const [path, body] of [
      ['sync', undefined],
      ['resync', { since: daysAgo(2) }],
      ['backfill', {}],
    ] as const) {
      const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/${path}`, { cookie: owner.cookie, body });
      expect(response.status, path).toBe(409);
      expect(response.body.error.code, path).toBe('mailbox.not_active');
    }
    const listed = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    expect(listed.body.mailboxes.find((entry: { id: string }) => entry.id === mailbox.id)).toMatchObject({ status: 'disconnected', messageCount: 1 });
  });
});

describe('prototype-named keys in bodies', () => {
  it.each(prototypeNames)('a body key named %s is ignored, never a 500', async (name) => {
    const mailbox = await createMailbox(owner);
    const body = JSON.parse(`{${JSON.stringify(name)}: {"polluted": true}, "since": ${JSON.stringify(daysAgo(1))}}`) as object;
    const resync = await call('POST', `/api/v1/mailboxes/${mailbox.id}/resync`, { cookie: owner.cookie, body });
    expect(resync.status).toBe(202);
    const backfill = await call('POST', `/api/v1/mailboxes/${mailbox.id}/backfill`, { cookie: owner.cookie, body });
    expect(backfill.status).toBe(202);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
