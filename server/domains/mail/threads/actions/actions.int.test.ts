import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../../core/db';
import { jobKeys } from '../../../../core/jobs/catalogue';
import { blobKeys, blobStore } from '../../../../core/storage/blob-store';
import { createApiKeyFor, createMember, type TestMember } from '../../../../testing/factories';
import { createMailbox, createMessage } from '../../../../testing/mail-factories';
import { call } from '../../../../testing/rest-client';
import { useTestDatabase } from '../../../../testing/test-database';
import { actOnMessage } from './service';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string };

const token = () => `tok-${randomUUID()}`;
const act = (threadId: string, body: Record<string, unknown>, options: { key?: string; headers?: Record<string, string> } = {}) =>
  call('POST', `/api/v1/threads/${threadId}/actions`, { ...(options.key ? { key: options.key } : { cookie: member.cookie }), headers: options.headers, body: { clientToken: token(), ...body } });

/** A thread of `count` messages in the given folders (cycled), oldest first. */
async function thread(folders: string[] = ['INBOX'], count = folders.length, options: { seen?: boolean; sent?: boolean } = {}) {
  const first = await createMessage(mailbox, { folderKey: folders[0], seen: options.seen, receivedAt: new Date(Date.now() - 60_000) });
  for (let i = 1; i < count; i += 1) await createMessage(mailbox, { threadId: first.threadId!, folderKey: folders[i % folders.length], seen: options.seen });
  if (options.sent) await db().mailMessage.updateMany({ where: { threadId: first.threadId! }, data: { sent: true } });
  return first.threadId!;
}

const messagesOf = (threadId: string) => db().mailMessage.findMany({ where: { threadId }, orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }] });
const threadRow = (threadId: string) => db().mailThread.findUnique({ where: { id: threadId } });
const pendingJob = async () =>
  (await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.operations(mailbox.id)}`)[0].n;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member);
  await db().mailFolder.create({ data: { mailboxId: mailbox.id, key: 'Projects', name: 'Projects' } });
});

describe('POST /api/v1/threads/{id}/actions', () => {
  it('marks read: one operation per message, the mirror and the thread updated at once, the runner’s job queued', async () => {
    const id = await thread(['INBOX', 'INBOX', 'Sent']);
    const response = await act(id, { action: 'markRead' });
    expect(response.status).toBe(202);
    const messages = await messagesOf(id);
    expect(response.body.threadId).toBe(id);
    expect(response.body.ops).toHaveLength(3);
    expect(new Set(response.body.ops.map((op: { messageId: string }) => op.messageId))).toEqual(new Set(messages.map((message) => message.id)));
    expect(response.body.ops.every((op: { duplicate: boolean }) => op.duplicate === false)).toBe(true);
    expect(messages.every((message) => message.seen)).toBe(true);
    expect((await threadRow(id))?.unreadCount).toBe(0);
    const operations = await db().mailOperation.findMany({ where: { threadId: id } });
    expect(operations).toHaveLength(3);
    expect(operations.every((operation) => operation.action === 'markRead' && operation.status === 'pending' && operation.memberId === member.id)).toBe(true);
    expect(await pendingJob()).toBe(1);
  });

  it.each([
    ['markUnread', { seen: false }, { seen: true }],
    ['flag', { flagged: true }, {}],
    ['unflag', { flagged: false }, {}],
  ] as const)('%s changes every message', async (action, expected, initial) => {
    const id = await thread(['INBOX', 'Archive'], 2, initial);
    if (action === 'unflag') await db().mailMessage.updateMany({ where: { threadId: id }, data: { flagged: true } });
    expect((await act(id, { action })).status).toBe(202);
    for (const message of await messagesOf(id)) expect(message).toMatchObject(expected);
    const row = await threadRow(id);
    if ('flagged' in expected) expect(row?.flagged).toBe(expected.flagged);
    if ('seen' in expected) expect(row?.unreadCount).toBe(2);
  });

  it('archives the inbox messages only, and unarchives them back', async () => {
    const id = await thread(['INBOX', 'Sent', 'INBOX']);
    const archived = await act(id, { action: 'archive' });
    expect(archived.status).toBe(202);
    expect(archived.body.ops).toHaveLength(2);
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['Archive', 'Sent', 'Archive']);
    expect((await threadRow(id))?.folderKeys.sort()).toEqual(['Archive', 'Sent']);
    const operation = await db().mailOperation.findFirstOrThrow({ where: { id: archived.body.ops[0].opId } });
    expect(operation.params).toEqual({ fromFolderKey: 'INBOX', toFolderKey: 'Archive' });
    // The thread left the inbox list at once.
    const inbox = await call('GET', `/api/v1/threads?mailboxId=${mailbox.id}&limit=200`, { cookie: member.cookie });
    expect(inbox.body.threads.map((item: { id: string }) => item.id)).not.toContain(id);
    expect((await act(id, { action: 'unarchive' })).body.ops).toHaveLength(2);
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['INBOX', 'Sent', 'INBOX']);
  });

  it('trashes every message and restores each one where it came from', async () => {
    const id = await thread(['INBOX', 'Sent', 'Projects']);
    expect((await act(id, { action: 'trash' })).body.ops).toHaveLength(3);
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['Trash', 'Trash', 'Trash']);
    expect((await act(id, { action: 'restore' })).status).toBe(202);
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['INBOX', 'Sent', 'Projects']);
  });

  it('restores mail it knows no origin of: sent mail to sent, the rest to the inbox', async () => {
    const id = await thread(['Trash', 'Trash']);
    const [, second] = await messagesOf(id);
    await db().mailMessage.update({ where: { id: second.id }, data: { sent: true } });
    await act(id, { action: 'restore' });
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['INBOX', 'Sent']);
  });

  it('moves to spam and back with notSpam', async () => {
    const id = await thread(['INBOX', 'Archive']);
    await act(id, { action: 'spam' });
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['Junk', 'Junk']);
    const all = await call('GET', `/api/v1/threads?mailboxId=${mailbox.id}&folder=all&limit=200`, { cookie: member.cookie });
    expect(all.body.threads.map((item: { id: string }) => item.id)).not.toContain(id);
    await act(id, { action: 'notSpam' });
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['INBOX', 'Archive']);
  });

  it('moves to a folder by key or by role name', async () => {
    const id = await thread(['INBOX', 'Projects']);
    const moved = await act(id, { action: 'move', folder: 'Projects' });
    expect(moved.body.ops).toHaveLength(1);
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['Projects', 'Projects']);
    await act(id, { action: 'move', folder: 'archive' });
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['Archive', 'Archive']);
  });

  it('deletes permanently what is in trash or spam: gone from the mirror with its attachments’ content', async () => {
    const id = await thread(['Trash', 'INBOX', 'Junk']);
    const [trashed, kept, spam] = await messagesOf(id);
    await db().mailAttachment.create({ data: { messageId: trashed.id, position: 1, filename: 'a.txt', mime: 'text/plain', size: 1, disposition: 'attachment', blobKey: blobKeys.attachment(trashed.id, 1) } });
    await blobStore().put(blobKeys.attachment(trashed.id, 1), Buffer.from('a'));
    const before = (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount;
    const response = await act(id, { action: 'deletePermanently' });
    expect(response.status).toBe(202);
    expect(response.body.ops.map((op: { messageId: string }) => op.messageId).sort()).toEqual([trashed.id, spam.id].sort());
    expect((await messagesOf(id)).map((message) => message.id)).toEqual([kept.id]);
    expect(await blobStore().get(blobKeys.attachment(trashed.id, 1))).toBeNull();
    const operation = await db().mailOperation.findFirstOrThrow({ where: { messageId: trashed.id } });
    expect(operation.params).toEqual({ fromFolderKey: 'Trash', providerKey: trashed.providerKey });
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(before - 2);
    expect((await threadRow(id))?.messageCount).toBe(1);
  });

  it('adds and removes labels, alone or with an action', async () => {
    const id = await thread(['INBOX', 'Sent']);
    expect((await act(id, { labels: { add: ['Work', 'Urgent'] } })).status).toBe(202);
    expect((await messagesOf(id)).map((message) => message.labels)).toEqual([['Work', 'Urgent'], ['Work', 'Urgent']]);
    expect((await threadRow(id))?.folderKeys.sort()).toEqual(['INBOX', 'Sent', 'Urgent', 'Work']);
    const operation = await db().mailOperation.findFirstOrThrow({ where: { threadId: id, action: 'labels' } });
    expect(operation.params).toEqual({ labelsAdd: ['Work', 'Urgent'], labelsRemove: [] });
    await act(id, { action: 'archive', labels: { add: ['Done'], remove: ['Urgent'] } });
    expect((await messagesOf(id)).map((message) => [message.folderKey, message.labels])).toEqual([
      ['Archive', ['Work', 'Done']],
      ['Sent', ['Work', 'Urgent']],
    ]);
  });

  it('answers a repeat of the same clientToken with the same operations, duplicate, applying nothing twice', async () => {
    const id = await thread(['INBOX', 'INBOX']);
    const clientToken = token();
    const first = await act(id, { action: 'trash', clientToken });
    // Restored in between: a replay must not trash it again.
    await act(id, { action: 'restore' });
    const again = await act(id, { action: 'trash', clientToken });
    expect(again.status).toBe(202);
    expect(again.body.ops).toEqual(first.body.ops.map((op: object) => ({ ...op, duplicate: true })));
    expect((await messagesOf(id)).map((message) => message.folderKey)).toEqual(['INBOX', 'INBOX']);
    expect(await db().mailOperation.count({ where: { clientToken } })).toBe(2);
    const reused = await act(await thread(), { action: 'trash', clientToken });
    expect(reused.status).toBe(400);
    expect(reused.body.error).toMatchObject({ code: 'webmail.bad_request', details: { reason: 'client_token_reused' } });
    expect((await act(id, { action: 'markRead', clientToken })).body.error.code).toBe('webmail.bad_request');
  });

  it('answers a concurrent repeat once applied and once duplicate', async () => {
    const id = await thread(['INBOX']);
    const clientToken = token();
    const [a, b] = await Promise.all([act(id, { action: 'flag', clientToken }), act(id, { action: 'flag', clientToken })]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect([a.body.ops[0].duplicate, b.body.ops[0].duplicate].sort()).toEqual([false, true]);
    expect(a.body.ops[0].opId).toBe(b.body.ops[0].opId);
  });

  it('replays an Idempotency-Key', async () => {
    const id = await thread(['INBOX']);
    const headers = { 'Idempotency-Key': `idem-${randomUUID()}` };
    const body = { action: 'markRead', clientToken: token() };
    const first = await call('POST', `/api/v1/threads/${id}/actions`, { cookie: member.cookie, headers, body });
    const second = await call('POST', `/api/v1/threads/${id}/actions`, { cookie: member.cookie, headers, body });
    expect(second.status).toBe(202);
    expect(second.headers.get('idempotency-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
  });

  it('refuses a thread of 1000 messages or more with 409 webmail.thread_too_large', async () => {
    const id = await thread(['INBOX']);
    await db().$executeRaw`
      INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, received_at, ingested_via, updated_at)
      SELECT gen_random_uuid(), ${mailbox.id}::uuid, ${id}::uuid, 'bulk-' || i, 'INBOX', now(), 'delta', now() FROM generate_series(1, 999) AS i`;
    const response = await act(id, { action: 'markRead' });
    expect(response.status).toBe(409);
    expect(response.body.error).toMatchObject({ code: 'webmail.thread_too_large', details: { limit: 1000 } });
    expect(await db().mailOperation.count({ where: { threadId: id } })).toBe(0);
  });

  it('answers 404 webmail.thread_not_found for another member’s thread, the same as for none', async () => {
    const theirs = await createMessage(await createMailbox(other));
    const foreign = await act(theirs.threadId!, { action: 'markRead' });
    const unknown = await act(randomUUID(), { action: 'markRead' });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'webmail.thread_not_found', message: 'No such thread.', details: {} } });
    expect(unknown.body).toEqual(foreign.body);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: theirs.id } })).seen).toBe(false);
  });

  it('answers 404 webmail.message_not_found for a thread with no message left', async () => {
    const empty = await db().mailThread.create({ data: { mailboxId: mailbox.id, subject: 'Empty', lastMessageAt: new Date() } });
    const response = await act(empty.id, { action: 'markRead' });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('webmail.message_not_found');
  });

  it.each([
    ['move without folder', ['INBOX'], { action: 'move' }, 'folder_required'],
    ['move to an unknown folder', ['INBOX'], { action: 'move', folder: 'Nowhere' }, 'unknown_folder'],
    ['move to a virtual folder', ['INBOX'], { action: 'move', folder: 'starred' }, 'virtual_folder'],
    ['move where it already is', ['Projects'], { action: 'move', folder: 'Projects' }, 'already_there'],
    ['archive with nothing in the inbox', ['Sent'], { action: 'archive' }, 'nothing_in_inbox'],
    ['restore with nothing in trash', ['INBOX'], { action: 'restore' }, 'nothing_in_trash'],
    ['notSpam with nothing in spam', ['INBOX'], { action: 'notSpam' }, 'nothing_in_spam'],
    ['deletePermanently outside trash and spam', ['INBOX'], { action: 'deletePermanently' }, 'nothing_in_trash'],
  ])('answers 400 webmail.unsupported_action: %s', async (_name, folders, body, reason) => {
    const id = await thread(folders);
    const response = await act(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'webmail.unsupported_action', details: { reason } });
    expect(await db().mailOperation.count({ where: { threadId: id } })).toBe(0);
  });

  it('answers webmail.unsupported_action for a permanent deletion the provider cannot do, and a disconnected mailbox', async () => {
    const gmail = await createMailbox(member, { provider: 'mail_provider_a' });
    const message = await createMessage(gmail, { folderKey: 'Trash' });
    expect((await act(message.threadId!, { action: 'deletePermanently' })).body.error).toMatchObject({ code: 'webmail.unsupported_action', details: { reason: 'provider_cannot_delete' } });
    const gone = await createMailbox(member, { status: 'disconnected' });
    const old = await createMessage(gone);
    expect((await act(old.threadId!, { action: 'markRead' })).body.error).toMatchObject({ code: 'webmail.unsupported_action', details: { reason: 'mailbox_disconnected' } });
  });

  it.each([
    ['no clientToken', { action: 'markRead', clientToken: undefined }],
    ['a short clientToken', { action: 'markRead', clientToken: 'short' }],
    ['a clientToken with spaces', { action: 'markRead', clientToken: 'has spaces in it' }],
    ['a clientToken of 129 characters', { action: 'markRead', clientToken: 'x'.repeat(129) }],
    ['an unknown action', { action: 'explode' }],
    ['neither action nor labels', {}],
    ['21 labels', { labels: { add: Array.from({ length: 21 }, (_, i) => `l${i}`) } }],
    ['an empty label', { labels: { remove: [''] } }],
    ['a label of 201 characters', { labels: { add: ['x'.repeat(201)] } }],
    ['a label with a control character', { labels: { add: ['a\u0007b'] } }],
    ['a label with NUL', { labels: { add: ['a\u0000b'] } }],
    ['folder with another action', { action: 'trash', folder: 'Projects' }],
  ])('answers 400 webmail.bad_request for %s', async (_name, body) => {
    const id = await thread(['INBOX']);
    const response = await act(id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('webmail.bad_request');
  });

  it('answers 400 webmail.bad_request for a path id that is not a uuid', async () => {
    const response = await call('POST', '/api/v1/threads/nope/actions', { cookie: member.cookie, body: { action: 'markRead', clientToken: token() } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('webmail.bad_request');
  });

  it('needs messages:write', async () => {
    const id = await thread(['INBOX']);
    const { secret } = await createApiKeyFor(member, ['messages:read']);
    const response = await act(id, { action: 'markRead' }, { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'messages:write' } });
  });
});

describe('actOnMessage: the undo record (issue 24 §4)', () => {
  it('answers the message before and after, as the mirror wrote it; a repeat answers no record', async () => {
    const message = await createMessage(mailbox, { folderKey: 'INBOX', seen: true, messageIdHeader: '<undo-record@example.test>' });
    await db().mailMessage.update({ where: { id: message.id }, data: { labels: ['keep', 'old'] } });
    const clientToken = token();
    const moved = await actOnMessage(member.id, { messageId: message.id, action: 'move', folder: 'Projects', labels: { add: ['new', 'keep'], remove: ['old'] }, clientToken });
    expect(moved.undo).toEqual({
      v: 1,
      messageId: message.id,
      mailboxId: mailbox.id,
      messageIdHeader: '<undo-record@example.test>',
      before: { folderKey: 'INBOX', seen: true, flagged: false, labels: ['keep', 'old'] },
      after: { folderKey: 'Projects', seen: true, flagged: false, labels: ['keep', 'new'] },
    });
    const row = await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect({ folderKey: row.folderKey, seen: row.seen, flagged: row.flagged, labels: row.labels }).toEqual(moved.undo!.after);
    const flagged = await actOnMessage(member.id, { messageId: message.id, action: 'flag', clientToken: token() });
    expect([flagged.undo!.before.flagged, flagged.undo!.after.flagged, flagged.undo!.after.folderKey]).toEqual([false, true, 'Projects']);
    const repeat = await actOnMessage(member.id, { messageId: message.id, action: 'move', folder: 'Projects', labels: { add: ['new', 'keep'], remove: ['old'] }, clientToken });
    expect(repeat).toEqual({ operationId: moved.operationId, duplicate: true });
  });
});
