/**
 * `supportSyncStore` over PostgreSQL: the rules the sync loop relies on (server/domains/support/sync/store.ts).
 * Threads and messages are made through the real routes, as members make them.
 */
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { channel } from '../../core/realtime/disconnect';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { supportSyncStore as store } from '.';
import type { SupportChange } from './sync/store';

const secret = 'sync-store-test-secret-0123456789';
Object.assign(process.env, { CONTROL_PLANE_URL: 'http://127.0.0.1:9', CONTROL_PLANE_INSTANCE_ID: 'acme-sync', CONTROL_PLANE_SECRET: secret });
resetConfigForTests();

const databaseUrl = await useTestDatabase();

let author: TestMember;
let admin: TestMember;

beforeAll(async () => {
  author = await createMember({ name: 'Mel Member' });
  admin = await createMember({ role: 'admin', name: 'Ada Admin' });
});

const future = (seconds: number) => new Date(Date.now() + seconds * 1000);

async function conversation(subject: string, body = 'First'): Promise<{ id: string; firstMessageId: string }> {
  const response = await call('POST', '/api/v1/support/threads', { cookie: author.cookie, body: { subject, body } });
  expect(response.status).toBe(201);
  return { id: response.body.id, firstMessageId: response.body.messages[0].id };
}

async function message(threadId: string, body: string): Promise<string> {
  const response = await call('POST', `/api/v1/support/threads/${threadId}/messages`, { cookie: author.cookie, body: { body } });
  expect(response.status).toBe(201);
  return response.body.messages.at(-1).id;
}

const thread = (id: string) => call('GET', `/api/v1/support/threads/${id}`, { cookie: author.cookie }).then((response) => response.body);

/** Delivers what is due, so each test starts from an empty outbox. */
async function drain(): Promise<void> {
  for (const item of await store.nextOutbox(500, future(24 * 3600))) await store.markDelivered(item.itemId, new Date());
}

let seq = 0;
const nextSeq = () => (seq += 1);

describe('the outbox', () => {
  it('hands out items oldest first, in order per thread, a thread before its messages, with what the operator needs', async () => {
    await drain();
    const a = await conversation('Thread A', 'A first');
    const a2 = await message(a.id, 'A second');
    const b = await conversation('Thread B', 'B first');
    const a3 = await message(a.id, 'A third');
    const items = await store.nextOutbox(10, new Date());
    expect(items.map((item) => [item.type, item.threadId, item.messageId])).toEqual([
      ['thread', a.id, a.firstMessageId],
      ['message', a.id, a2],
      ['thread', b.id, b.firstMessageId],
      ['message', a.id, a3],
    ]);
    expect(items[0]).toMatchObject({ itemId: a.firstMessageId, attempts: 0, kind: 'conversation', subject: 'Thread A', body: 'A first', author: { name: 'Mel Member', memberId: author.id } });
    expect(items[1]).toMatchObject({ itemId: a2, body: 'A second', author: { name: 'Mel Member', memberId: author.id } });
    expect(items[0]!.createdAt).toBeInstanceOf(Date);
    expect(await store.nextOutbox(2, new Date())).toHaveLength(2);
    await drain();
  });

  it('a request’s item carries its title as subject and its need as body', async () => {
    const response = await call('POST', '/api/v1/support/requests', { cookie: author.cookie, body: { title: 'Quote please', need: 'A connector for our ERP' } });
    const [item] = await store.nextOutbox(10, new Date());
    expect(item).toMatchObject({ type: 'thread', threadId: response.body.id, kind: 'request', subject: 'Quote please', body: 'A connector for our ERP' });
    await drain();
  });

  it('a failed delivery counts an attempt, keeps its error, and holds back its thread (never another) until it is due', async () => {
    const a = await conversation('Retry A');
    const a2 = await message(a.id, 'after the first');
    const b = await conversation('Retry B');
    const retryAt = future(60);
    await store.markFailed(a.firstMessageId, { error: 'control plane answered 503', nextAttemptAt: retryAt });

    expect((await store.nextOutbox(10, new Date())).map((item) => item.itemId)).toEqual([b.firstMessageId]);
    const due = await store.nextOutbox(10, new Date(retryAt.getTime() + 1));
    expect(due.map((item) => item.itemId)).toEqual([a.firstMessageId, a2, b.firstMessageId]);
    expect(due[0]!.attempts).toBe(1);
    const row = await db().supportMessage.findUniqueOrThrow({ where: { id: a.firstMessageId } });
    expect(row).toMatchObject({ attempts: 1, lastError: 'control plane answered 503', deliveredAt: null });

    await store.markFailed(a.firstMessageId, { error: 'timeout', nextAttemptAt: retryAt });
    expect((await db().supportMessage.findUniqueOrThrow({ where: { id: a.firstMessageId } })).attempts).toBe(2);
    await drain();
  });

  it('a later message waiting for its retry holds back the rest of its thread, not its earlier items', async () => {
    const a = await conversation('Prefix');
    const a2 = await message(a.id, 'second');
    const a3 = await message(a.id, 'third');
    await store.markFailed(a2, { error: 'x', nextAttemptAt: future(60) });
    expect((await store.nextOutbox(10, new Date())).map((item) => item.itemId)).toEqual([a.firstMessageId]);
    expect((await store.nextOutbox(10, future(61))).map((item) => item.itemId)).toEqual([a.firstMessageId, a2, a3]);
    await drain();
  });

  it('the error kept never holds the instance secret, nor text PostgreSQL cannot store, and is bounded', async () => {
    const a = await conversation('Secret in error');
    await store.markFailed(a.firstMessageId, { error: `401 for Bearer ${secret}\u0000 ${'x'.repeat(2000)}`, nextAttemptAt: new Date() });
    const row = await db().supportMessage.findUniqueOrThrow({ where: { id: a.firstMessageId } });
    expect(row.lastError).not.toContain(secret);
    expect(row.lastError).toContain('[redacted]');
    expect(row.lastError).not.toContain('\u0000');
    expect(row.lastError!.length).toBeLessThanOrEqual(500);
    await drain();
  });

  it('delivered: the message and its thread are no longer pending, the item leaves the outbox; delivering again is a no-op', async () => {
    const a = await conversation('Delivered');
    expect((await thread(a.id)).pending).toBe(true);
    const at = new Date();
    await store.markDelivered(a.firstMessageId, at);
    await store.markDelivered(a.firstMessageId, future(5));
    expect(await thread(a.id)).toMatchObject({ pending: false, messages: [{ pending: false }] });
    expect((await db().supportMessage.findUniqueOrThrow({ where: { id: a.firstMessageId } })).deliveredAt).toEqual(at);
    expect((await store.nextOutbox(10, new Date())).map((item) => item.itemId)).not.toContain(a.firstMessageId);
    // A delivered item's failure changes nothing; unknown and malformed ids are no-ops.
    await store.markFailed(a.firstMessageId, { error: 'late', nextAttemptAt: future(5) });
    expect((await db().supportMessage.findUniqueOrThrow({ where: { id: a.firstMessageId } })).attempts).toBe(0);
    await store.markDelivered('not-a-uuid', new Date());
    await store.markFailed('00000000-0000-4000-8000-000000000000', { error: 'x', nextAttemptAt: new Date() });
  });
});

describe('applyChanges', () => {
  const reply = (threadId: string, operatorMessageId: string, body = 'Hello from the team'): SupportChange => ({
    type: 'team_message',
    seq: nextSeq(),
    threadId,
    operatorMessageId,
    authorName: 'Tess Team',
    body,
    createdAt: new Date(),
  });

  it('is idempotent: the same team message twice (in one pull and in the next) is stored once', async () => {
    const a = await conversation('Duplicates');
    const change = reply(a.id, 'op-dup-1');
    const first = await store.applyChanges([change, { ...change, seq: nextSeq() }], 'c1', new Date());
    expect(first.changedThreadIds).toEqual([a.id]);
    const second = await store.applyChanges([change], 'c2', new Date());
    expect(second.changedThreadIds).toEqual([]);
    const after = await thread(a.id);
    expect(after.messageCount).toBe(2);
    expect(after.messages.filter((m: { direction: string }) => m.direction === 'team')).toEqual([
      { id: expect.any(String), direction: 'team', authorName: 'Tess Team', body: 'Hello from the team', createdAt: expect.any(String), pending: false },
    ]);
    expect(after.unread).toBe(true);
  });

  it('out of order: an older status or assignee change arriving after a newer one is ignored', async () => {
    const response = await call('POST', '/api/v1/support/requests', { cookie: author.cookie, body: { title: 'Ordering', need: 'x' } });
    const id = response.body.id as string;
    const older = nextSeq();
    const newer = nextSeq();
    await store.applyChanges(
      [
        { type: 'status', seq: newer, threadId: id, status: 'quoted', at: new Date() },
        { type: 'assignee', seq: newer, threadId: id, assigneeName: 'Quinn', at: new Date() },
      ],
      'c3',
      new Date(),
    );
    const late = await store.applyChanges(
      [
        { type: 'status', seq: older, threadId: id, status: 'in_study', at: new Date() },
        { type: 'assignee', seq: older, threadId: id, assigneeName: 'Old Owner', at: new Date() },
      ],
      'c4',
      new Date(),
    );
    expect(late.changedThreadIds).toEqual([]);
    expect(await thread(id)).toMatchObject({ status: 'quoted', assigneeName: 'Quinn' });
    // Each field keeps its own order: a newer assignee change applies after them.
    await store.applyChanges([{ type: 'assignee', seq: nextSeq(), threadId: id, assigneeName: null, at: new Date() }], 'c5', new Date());
    expect(await thread(id)).toMatchObject({ status: 'quoted', assigneeName: null });
  });

  it('a status of the other kind, an unknown thread and malformed ids are ignored; the cursor still moves', async () => {
    const a = await conversation('Kinds');
    const result = await store.applyChanges(
      [
        { type: 'status', seq: nextSeq(), threadId: a.id, status: 'quoted', at: new Date() },
        { type: 'status', seq: nextSeq(), threadId: a.id, status: 'bogus' as never, at: new Date() },
        reply('00000000-0000-4000-8000-000000000000', 'op-unknown'),
        reply('not-a-uuid', 'op-malformed'),
        { type: 'ack', seq: nextSeq(), threadId: a.id, messageId: 'nope', at: new Date() },
        { type: 'status', seq: Number.NaN, threadId: a.id, status: 'closed', at: new Date() },
      ],
      'c-kinds',
      new Date(),
    );
    expect(result.changedThreadIds).toEqual([]);
    expect((await thread(a.id)).status).toBe('open');
    expect(await db().supportMessage.count({ where: { operatorMessageId: { in: ['op-unknown', 'op-malformed'] } } })).toBe(0);
    expect((await store.linkState()).cursor).toBe('c-kinds');
    await store.applyChanges([{ type: 'status', seq: nextSeq(), threadId: a.id, status: 'closed', at: new Date() }], 'c-closed', new Date());
    expect((await thread(a.id)).status).toBe('closed');
  });

  it('an acknowledgement of our message ends its pending state (the thread’s with its first message); an acknowledged item leaves the outbox', async () => {
    await drain();
    const a = await conversation('Acks');
    const a2 = await message(a.id, 'second');
    await store.applyChanges([{ type: 'ack', seq: nextSeq(), threadId: a.id, messageId: a.firstMessageId, at: new Date() }], 'c-ack', new Date());
    let after = await thread(a.id);
    expect(after.messages.map((m: { pending: boolean }) => m.pending)).toEqual([false, true]);
    expect(after.pending).toBe(true);
    expect((await store.nextOutbox(10, new Date())).map((item) => item.itemId)).toEqual([a2]);
    // An acknowledgement naming another thread is not ours to apply.
    await store.applyChanges([{ type: 'ack', seq: nextSeq(), threadId: '00000000-0000-4000-8000-000000000000', messageId: a2, at: new Date() }], 'c-ack2', new Date());
    expect((await thread(a.id)).pending).toBe(true);
    await store.applyChanges([{ type: 'ack', seq: nextSeq(), threadId: a.id, messageId: a2, at: new Date() }], 'c-ack3', new Date());
    after = await thread(a.id);
    expect(after.pending).toBe(false);
  });

  it('moves the cursor and syncedAt in the same transaction as the changes: a failing change leaves all three as they were', async () => {
    const a = await conversation('Atomic');
    const before = await store.linkState();
    // A trigger makes one insert fail, as a database error mid-pull would.
    await db().$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION support_test_boom() RETURNS trigger AS $$
      BEGIN IF NEW.body = 'boom' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await db().$executeRawUnsafe('CREATE TRIGGER support_test_boom BEFORE INSERT ON support_messages FOR EACH ROW EXECUTE FUNCTION support_test_boom()');
    try {
      await expect(
        store.applyChanges([{ type: 'status', seq: nextSeq(), threadId: a.id, status: 'closed', at: new Date() }, reply(a.id, 'op-boom', 'boom')], 'c-never', future(60)),
      ).rejects.toThrow();
    } finally {
      await db().$executeRawUnsafe('DROP TRIGGER support_test_boom ON support_messages');
    }
    expect(await store.linkState()).toEqual(before);
    expect((await thread(a.id)).status).toBe('open');

    const at = new Date();
    await store.applyChanges([{ type: 'status', seq: nextSeq(), threadId: a.id, status: 'closed', at }], 'c-after', at);
    expect(await store.linkState()).toEqual({ cursor: 'c-after', syncedAt: at });
    // A null next cursor keeps the position; markSynced moves syncedAt alone.
    const later = future(1);
    await store.applyChanges([], null, later);
    expect(await store.linkState()).toEqual({ cursor: 'c-after', syncedAt: later });
    const latest = future(2);
    await store.markSynced(latest);
    expect(await store.linkState()).toEqual({ cursor: 'c-after', syncedAt: latest });
    expect((await call('GET', '/api/v1/support', { cookie: author.cookie })).body.syncedAt).toBe(latest.toISOString());
  });

  it('a team reply is announced live (support.thread to the author and the administrators) and notifies the author (support.reply)', async () => {
    const a = await conversation('Live reply');
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const seen: { rooms: string[]; event: string; payload: unknown }[] = [];
    listener.on('notification', (note) => {
      const data = (JSON.parse(note.payload ?? '{}') as { data?: { opts?: { rooms?: string[] }; packet?: { data?: [string, unknown] } } }).data;
      const packet = data?.packet?.data;
      if (packet?.[0] === 'support.thread') seen.push({ rooms: data?.opts?.rooms ?? [], event: packet[0], payload: packet[1] });
    });
    await listener.query(`LISTEN "${channel}"`);
    try {
      await store.applyChanges([reply(a.id, 'op-live', 'Live!')], 'c-live', new Date());
      for (let tries = 0; tries < 200 && seen.length < 2; tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      const rooms = seen.filter((entry) => (entry.payload as { threadId: string }).threadId === a.id).flatMap((entry) => entry.rooms);
      expect(rooms).toEqual(expect.arrayContaining([`member:${author.id}`, `member:${admin.id}`]));
    } finally {
      await listener.end();
    }
    const notification = await db().notification.findFirst({ where: { memberId: author.id, kind: 'support.reply' }, orderBy: { createdAt: 'desc' } });
    expect(notification).toMatchObject({ severity: 'info', params: { threadId: a.id, subject: 'Live reply', authorName: 'Tess Team' }, link: `/support/${a.id}` });
    expect(await db().notification.count({ where: { memberId: admin.id, kind: 'support.reply' } })).toBe(0);
  });

  it('team text PostgreSQL cannot store (NUL) is cleaned rather than failing the whole pull', async () => {
    const a = await conversation('Dirty text');
    await store.applyChanges([reply(a.id, 'op-dirty', 'a\u0000b')], 'c-dirty', new Date());
    expect((await thread(a.id)).messages.at(-1).body).toBe('ab');
  });
});

describe('branding kept for the sign-in page', () => {
  it('saves the operator’s branding and gives it back with when it was fetched; null means none', async () => {
    expect(await store.cachedBranding()).toBeNull();
    const branding = {
      name: 'Acme Mail',
      logo: { light: 'https://cdn.example/light.svg', dark: null },
      favicon: null,
      colors: { primary: '#112233', onPrimary: '#ffffff', accent: null, onAccent: null },
      supportUrl: 'https://help.example',
      poweredBy: null,
      login: { welcome: { en: 'Welcome', fr: 'Bienvenue' }, image: null },
    };
    const at = new Date();
    await store.saveBranding(branding, at);
    expect(await store.cachedBranding()).toEqual({ branding, fetchedAt: at });
    await store.saveBranding(null, future(1));
    expect(await store.cachedBranding()).toBeNull();
  });
});
