/**
 * The six support routes (spec, Endpoints → Support requests to the team; Resources → Support thread;
 * Authentication 9), through the whole pipeline, on a linked instance unless a test says otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { handleApiRequest } from '../../http/api-handler';
import { startBridgeServer } from '../../testing/bridge-server';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { postNeverEndingChunkedBody } from '../../testing/raw-chunked';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { supportSyncStore } from '.';

const linkEnv = { CONTROL_PLANE_URL: 'http://127.0.0.1:9/control', CONTROL_PLANE_INSTANCE_ID: 'acme-test', CONTROL_PLANE_SECRET: 'support-test-secret-0123456789' };
Object.assign(process.env, linkEnv);
resetConfigForTests();

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin', name: 'Ada Admin' });
  member = await createMember({ name: 'Mel Member' });
  other = await createMember({ name: 'Otto Other' });
});

const overview = (who: TestMember) => call('GET', '/api/v1/support', { cookie: who.cookie });
const getThread = (who: TestMember, id: string) => call('GET', `/api/v1/support/threads/${id}`, { cookie: who.cookie });
const readThread = (who: TestMember, id: string) => call('POST', `/api/v1/support/threads/${id}/read`, { cookie: who.cookie });
const openRequest = (who: TestMember, body: unknown) => call('POST', '/api/v1/support/requests', { cookie: who.cookie, body });
const openConversation = (who: TestMember, body: unknown) => call('POST', '/api/v1/support/threads', { cookie: who.cookie, body });
const postMessage = (who: TestMember, id: string, body: unknown) => call('POST', `/api/v1/support/threads/${id}/messages`, { cookie: who.cookie, body });

let seq = 1000;
/** The operator replies in a thread, as the sync would record it. */
async function teamReply(threadId: string, body = 'On it.') {
  seq += 1;
  await supportSyncStore.applyChanges([{ type: 'team_message', seq, threadId, operatorMessageId: `op-${seq}`, authorName: 'Tess Team', body, createdAt: new Date() }], `cursor-${seq}`, new Date());
}

describe('writes store locally first and answer at once, pending', () => {
  it('POST /support/requests: 201, kind request, status received, the title as subject and the need as the first message, pending', async () => {
    const response = await openRequest(member, { title: '  A new export format  ', need: '  We need CSV with semicolons.  ' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      kind: 'request',
      subject: 'A new export format',
      status: 'received',
      assigneeName: null,
      authorName: 'Mel Member',
      authorMemberId: member.id,
      messageCount: 1,
      unread: false,
      pending: true,
    });
    expect(response.body.messages).toEqual([
      { id: expect.any(String), direction: 'member', authorName: 'Mel Member', body: 'We need CSV with semicolons.', createdAt: expect.any(String), pending: true },
    ]);
    expect(response.body.lastMessageAt).toBe(response.body.createdAt);
  });

  it('POST /support/threads: 201, kind conversation, status open', async () => {
    const response = await openConversation(member, { subject: 'Hello', body: 'A question about invoices.' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ kind: 'conversation', subject: 'Hello', status: 'open', pending: true, messageCount: 1 });
  });

  it('a write queues one sync job for the instance (key support-sync), however many writes come at once', async () => {
    await Promise.all([openConversation(member, { subject: 'Burst 1', body: 'x' }), openConversation(member, { subject: 'Burst 2', body: 'y' })]);
    const jobs = await db().$queryRaw<{ count: number }[]>`SELECT count(*)::int AS count FROM graphile_worker.jobs WHERE key = 'support-sync'`;
    expect(jobs[0]!.count).toBe(1);
  });

  it('POST /support/threads/{id}/messages: 201, the message appended pending, the thread active again', async () => {
    const thread = (await openConversation(member, { subject: 'Follow-up', body: 'First' })).body;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const response = await postMessage(member, thread.id, { body: 'Second' });
    expect(response.status).toBe(201);
    expect(response.body.messageCount).toBe(2);
    expect(response.body.messages.map((message: { body: string; pending: boolean }) => [message.body, message.pending])).toEqual([
      ['First', true],
      ['Second', true],
    ]);
    expect(response.body.updatedAt > thread.updatedAt).toBe(true);
    expect(response.body.lastMessageAt).toBe(response.body.updatedAt);
  });

  it('pending clears once the operator holds the message (the thread with it)', async () => {
    const thread = (await openConversation(member, { subject: 'Delivery', body: 'Deliver me' })).body;
    await supportSyncStore.markDelivered(thread.messages[0].id, new Date());
    const after = await getThread(member, thread.id);
    expect(after.body.pending).toBe(false);
    expect(after.body.messages[0].pending).toBe(false);
  });
});

describe('support.bad_request for every input error', () => {
  const title160 = 't'.repeat(160);
  const need5000 = 'n'.repeat(5000);

  it('bounds are checked after trimming: 1-160 for a title or subject, 1-5,000 for a need or body', async () => {
    expect((await openRequest(member, { title: title160, need: need5000 })).status).toBe(201);
    expect((await openConversation(member, { subject: ` ${title160} `, body: ` ${need5000} ` })).status).toBe(201);
    const thread = (await openConversation(member, { subject: 'Bounds', body: 'x' })).body;
    expect((await postMessage(member, thread.id, { body: need5000 })).status).toBe(201);
    const refused: [string, () => Promise<{ status: number; body: any }>][] = [
      ['empty title', () => openRequest(member, { title: '', need: 'x' })],
      ['blank title', () => openRequest(member, { title: '   ', need: 'x' })],
      ['title of 161', () => openRequest(member, { title: `${title160}t`, need: 'x' })],
      ['blank need', () => openRequest(member, { title: 'x', need: '\n\t ' })],
      ['need of 5,001', () => openRequest(member, { title: 'x', need: `${need5000}n` })],
      ['subject of 161', () => openConversation(member, { subject: `${title160}s`, body: 'x' })],
      ['empty body', () => openConversation(member, { subject: 'x', body: '' })],
      ['message of 5,001', () => postMessage(member, thread.id, { body: `${need5000}n` })],
      ['blank message', () => postMessage(member, thread.id, { body: '  ' })],
      ['missing need', () => openRequest(member, { title: 'x' })],
      ['missing body', () => postMessage(member, thread.id, {})],
      ['a number for a string', () => openConversation(member, { subject: 1, body: 'x' })],
      ['an array for a string', () => openRequest(member, { title: ['x'], need: 'x' })],
      ['an unknown field', () => openRequest(member, { title: 'x', need: 'y', status: 'delivered' })],
      ['an unknown field beside a message', () => postMessage(member, thread.id, { body: 'x', direction: 'team' })],
      ['a NUL in the text', () => openConversation(member, { subject: 'x\u0000y', body: 'x' })],
      ['a lone surrogate', () => postMessage(member, thread.id, { body: 'x\ud800' })],
    ];
    for (const [label, send] of refused) {
      const response = await send();
      expect(response.status, label).toBe(400);
      expect(response.body.error.code, label).toBe('support.bad_request');
    }
    expect(await db().supportMessage.count({ where: { threadId: thread.id } })).toBe(2);
  });
});

describe('member sessions only (Authentication 9)', () => {
  it('an API key, whatever its scopes and its owner’s role, gets 403 api_key.session_required on all six routes, and nothing is written', async () => {
    const thread = (await openConversation(member, { subject: 'Keys', body: 'x' })).body;
    const { secret: memberKey } = await createApiKeyFor(member, ['tables:read']);
    const { secret: adminKey } = await createApiKeyFor(admin, ['admin:read', 'admin:write']);
    const routes = [
      ['GET', '/api/v1/support', undefined],
      ['GET', `/api/v1/support/threads/${thread.id}`, undefined],
      ['POST', `/api/v1/support/threads/${thread.id}/read`, undefined],
      ['POST', '/api/v1/support/requests', { title: 'k', need: 'k' }],
      ['POST', '/api/v1/support/threads', { subject: 'k', body: 'k' }],
      ['POST', `/api/v1/support/threads/${thread.id}/messages`, { body: 'k' }],
    ] as const;
    const before = await db().supportMessage.count();
    for (const [method, path, body] of routes) {
      for (const key of [memberKey, adminKey]) {
        const response = await call(method, path, { key, body });
        expect(response.status, `${method} ${path}`).toBe(403);
        expect(response.body.error.code).toBe('api_key.session_required');
      }
      const anonymous = await call(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
    }
    expect(await db().supportMessage.count()).toBe(before);
  });
});

describe('who sees which thread', () => {
  it('a member sees their own threads only; another member’s thread is 404 support.not_found on every route', async () => {
    const theirs = (await openConversation(other, { subject: 'Private to Otto', body: 'Mine' })).body;
    const list = await overview(member);
    expect(list.body.threads.map((thread: { id: string }) => thread.id)).not.toContain(theirs.id);
    expect(list.body.threads.every((thread: { authorMemberId: string }) => thread.authorMemberId === member.id)).toBe(true);
    for (const response of [await getThread(member, theirs.id), await readThread(member, theirs.id), await postMessage(member, theirs.id, { body: 'Intrusion' })]) {
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('support.not_found');
    }
    expect(await db().supportMessage.count({ where: { threadId: theirs.id } })).toBe(1);
    expect(await db().supportRead.count({ where: { threadId: theirs.id, memberId: member.id } })).toBe(0);
  });

  it('an unknown id and a malformed one (not a uuid, a prototype name, SQL) are 404 support.not_found, never a 500', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', '__proto__', 'constructor', "x'%20OR%201=1--", 'a'.repeat(500)]) {
      for (const response of [await getThread(member, id), await readThread(member, id), await postMessage(member, id, { body: 'x' })]) {
        expect(response.status, id).toBe(404);
        expect(response.body.error.code).toBe('support.not_found');
      }
    }
  });

  it('an administrator sees the organisation’s threads with their authors, reads them and may write in them under their own name', async () => {
    const theirs = (await openRequest(other, { title: 'Otto’s request', need: 'Please' })).body;
    const list = await overview(admin);
    const listed = list.body.threads.find((thread: { id: string }) => thread.id === theirs.id);
    expect(listed).toMatchObject({ authorName: 'Otto Other', authorMemberId: other.id, kind: 'request' });
    expect(list.body.threads.some((thread: { authorMemberId: string }) => thread.authorMemberId === member.id)).toBe(true);
    expect((await getThread(admin, theirs.id)).status).toBe(200);
    const written = await postMessage(admin, theirs.id, { body: 'Adding context as the administrator.' });
    expect(written.status).toBe(201);
    expect(written.body.messages[1]).toMatchObject({ direction: 'member', authorName: 'Ada Admin', pending: true });
    expect(written.body.authorName).toBe('Otto Other');
  });

  it('the list: most recently active first (a message moves a thread up), summaries without messages', async () => {
    const older = (await openConversation(member, { subject: 'Older', body: 'x' })).body;
    const newer = (await openConversation(member, { subject: 'Newer', body: 'x' })).body;
    let ids = (await overview(member)).body.threads.map((thread: { id: string }) => thread.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    await postMessage(member, older.id, { body: 'bump' });
    const listed = (await overview(member)).body;
    ids = listed.threads.map((thread: { id: string }) => thread.id);
    expect(ids[0]).toBe(older.id);
    expect(listed.threads[0]).not.toHaveProperty('messages');
    expect(listed).toMatchObject({ linked: true, unreadCount: expect.any(Number) });
  });

  it('the list holds the latest 200 threads at most', async () => {
    const loner = await createMember();
    await db().supportThread.createMany({
      data: Array.from({ length: 205 }, (_, index) => ({ kind: 'conversation', subject: `Bulk ${index}`, status: 'open', authorMemberId: loner.id, authorName: 'Loner', updatedAt: new Date(Date.UTC(2026, 0, 1, 0, index)) })),
    });
    const listed = (await overview(loner)).body.threads;
    expect(listed).toHaveLength(200);
    expect(listed[0].subject).toBe('Bulk 204');
    expect(listed[199].subject).toBe('Bulk 5');
  });
});

describe('unread, per reader', () => {
  it('a team reply makes the thread unread for its author and for an administrator who never read it; each reading counts for its reader only', async () => {
    const reader = await createMember({ name: 'Rita Reader' });
    const thread = (await openRequest(reader, { title: 'Unread rules', need: 'x' })).body;
    expect((await overview(reader)).body.unreadCount).toBe(0);
    const adminBefore = (await overview(admin)).body.unreadCount;

    await teamReply(thread.id, 'We are studying it.');
    let mine = await overview(reader);
    expect(mine.body.unreadCount).toBe(1);
    expect(mine.body.threads[0]).toMatchObject({ id: thread.id, unread: true, messageCount: 2 });
    expect((await overview(admin)).body.unreadCount).toBe(adminBefore + 1);

    // Reading is not marking read: GET leaves it unread.
    expect((await getThread(reader, thread.id)).body.unread).toBe(true);

    // The administrator reads the member's thread: read for the administrator, still unread for its author.
    const adminRead = await readThread(admin, thread.id);
    expect(adminRead.status).toBe(200);
    expect(adminRead.body).toMatchObject({ id: thread.id, unread: false });
    expect(adminRead.body.messages.at(-1)).toMatchObject({ direction: 'team', authorName: 'Tess Team', body: 'We are studying it.', pending: false });
    expect((await overview(admin)).body.unreadCount).toBe(adminBefore);
    expect((await getThread(reader, thread.id)).body.unread).toBe(true);

    const readerRead = await readThread(reader, thread.id);
    expect(readerRead.body.unread).toBe(false);
    mine = await overview(reader);
    expect(mine.body.unreadCount).toBe(0);

    // A later reply is unread again; the reader's own message is never unread.
    await postMessage(reader, thread.id, { body: 'Thanks' });
    expect((await overview(reader)).body.unreadCount).toBe(0);
    await teamReply(thread.id, 'Quoted.');
    expect((await overview(reader)).body.unreadCount).toBe(1);
  });
});

describe('an instance not linked to a control plane', () => {
  afterAll(() => {
    Object.assign(process.env, linkEnv);
    resetConfigForTests();
  });

  it('answers reads from the local state with linked: false, and every write 409 support.not_linked, writing nothing', async () => {
    const thread = (await openConversation(member, { subject: 'Before unlinking', body: 'x' })).body;
    for (const name of Object.keys(linkEnv)) delete process.env[name];
    resetConfigForTests();

    const list = await overview(member);
    expect(list.status).toBe(200);
    expect(list.body.linked).toBe(false);
    expect(list.body.threads.map((listed: { id: string }) => listed.id)).toContain(thread.id);
    expect((await getThread(member, thread.id)).status).toBe(200);
    expect((await readThread(member, thread.id)).status).toBe(200);

    const before = await db().supportMessage.count();
    for (const response of [
      await openRequest(member, { title: 'x', need: 'y' }),
      await openConversation(member, { subject: 'x', body: 'y' }),
      await postMessage(member, thread.id, { body: 'y' }),
    ]) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('support.not_linked');
    }
    expect(await db().supportMessage.count()).toBe(before);
  });
});

describe('outsider attacks', () => {
  it('prototype names as keys are unknown fields (400 support.bad_request), never merged', async () => {
    for (const raw of [
      '{"title":"Proto","need":"x","__proto__":{"status":"delivered"}}',
      '{"subject":"Proto","body":"x","constructor":{"prototype":{"kind":"request"}}}',
    ]) {
      const path = raw.includes('title') ? '/api/v1/support/requests' : '/api/v1/support/threads';
      const response = await call('POST', path, { cookie: member.cookie, rawBody: raw, headers: { 'content-type': 'application/json' } });
      expect(response.status, raw).toBe(400);
      expect(response.body.error.code).toBe('support.bad_request');
    }
    expect(await db().supportThread.count({ where: { subject: 'Proto' } })).toBe(0);
  });

  it('malformed JSON is a 400 and a body past 5 MB a 413, writing nothing', async () => {
    // What fails before the procedure (a body that is not JSON, or not an object) is the pipeline's 400.
    const malformed = await call('POST', '/api/v1/support/requests', { cookie: member.cookie, rawBody: '{"title":"x","need":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    const array = await openConversation(member, [{ subject: 'Array', body: 'y' }]);
    expect(array.status).toBe(400);
    expect(['support.bad_request', 'request.bad_request']).toContain(array.body.error.code);
    const huge = await call('POST', '/api/v1/support/threads', { cookie: member.cookie, body: { subject: 'Huge', body: 'x'.repeat(5_300_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('request.payload_too_large');
    expect(await db().supportThread.count({ where: { subject: { in: ['Huge', 'Array'] } } })).toBe(0);
  });

  it('a chunked body that never ends, over a real socket: 413 request.payload_too_large, nothing written', async () => {
    const server = await startBridgeServer(handleApiRequest);
    try {
      const answer = await postNeverEndingChunkedBody({ port: server.port, path: '/api/v1/support/requests', headers: { cookie: member.cookie } });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe('request.payload_too_large');
    } finally {
      await server.close();
    }
  });

  it('a cookie-authenticated write from another site is refused (403 auth.cross_origin)', async () => {
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
      const response = await call('POST', '/api/v1/support/threads', { cookie: member.cookie, body: { subject: 'Forged', body: 'x' }, headers });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('auth.cross_origin');
    }
    const read = await call('GET', '/api/v1/support', { cookie: member.cookie, headers: { origin: 'https://evil.example' } });
    expect(read.status).toBe(200);
    expect(await db().supportThread.count({ where: { subject: 'Forged' } })).toBe(0);
  });
});
