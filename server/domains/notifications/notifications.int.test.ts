import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { purgeArchivedNotifications } from './housekeeping';
import { notify } from './notify';

const databaseUrl = await useTestDatabase();

let member: TestMember;
let other: TestMember;

async function addNotification(target: TestMember, address: string) {
  const row = await notify({ memberId: target.id, kind: 'mailbox.recovered', severity: 'info', params: { mailboxId: 'm1', address }, link: '/settings/mailboxes' });
  // Rows of one millisecond are ordered by id, not by insertion: keep the expected order unambiguous.
  await sleep(3);
  return row.id;
}

/** Live events sent to the member's room while `run` runs (the socket.io channel, as adapters see it). */
async function eventsDuring(run: () => Promise<unknown>): Promise<{ event: string; payload: unknown; rooms: string[] }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const seen: { event: string; payload: unknown; rooms: string[] }[] = [];
  client.on('notification', (message) => {
    const parsed = JSON.parse(message.payload ?? '{}') as { data?: { opts?: { rooms?: string[] }; packet?: { data?: [string, unknown] } } };
    const data = parsed.data?.packet?.data;
    if (data) seen.push({ event: data[0], payload: data[1], rooms: parsed.data?.opts?.rooms ?? [] });
  });
  await client.query('LISTEN "socket.io#/"');
  try {
    await run();
    // Notifications are delivered after commit; a round trip on the listening connection flushes them.
    await client.query('SELECT 1');
    await sleep(50);
    return seen;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

beforeEach(async () => {
  await db().notification.deleteMany();
});

describe('GET /api/v1/notifications', () => {
  it('lists the member’s notifications newest first with unreadCount and the spec’s fields', async () => {
    const first = await addNotification(member, 'a@example.test');
    const second = await addNotification(member, 'b@example.test');
    await addNotification(other, 'c@example.test');

    const response = await call('GET', '/api/v1/notifications', { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([second, first]);
    expect(response.body.unreadCount).toBe(2);
    expect(response.body.nextCursor).toBeNull();
    expect(response.body.items[0]).toEqual({
      id: second,
      kind: 'mailbox.recovered',
      severity: 'info',
      params: { mailboxId: 'm1', address: 'b@example.test' },
      link: '/settings/mailboxes',
      createdAt: expect.stringMatching(/Z$/),
      readAt: null,
    });
  });

  it('pages with a cursor that is stable against insertion, nextCursor null at the end', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await addNotification(member, `${i}@example.test`));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/v1/notifications?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await call('GET', query, { cookie: member.cookie });
      expect(response.status).toBe(200);
      seen.push(...response.body.items.map((item: { id: string }) => item.id));
      cursor = response.body.nextCursor;
      // A notification arriving between pages must not shift the next page.
      await addNotification(member, 'late@example.test');
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('keeps unread ones with unread=true, never lists archived ones', async () => {
    const readOne = await addNotification(member, 'read@example.test');
    const unreadOne = await addNotification(member, 'unread@example.test');
    const archived = await addNotification(member, 'archived@example.test');
    await call('POST', `/api/v1/notifications/${readOne}/read`, { cookie: member.cookie });
    await call('POST', `/api/v1/notifications/${archived}/archive`, { cookie: member.cookie });

    const unread = await call('GET', '/api/v1/notifications?unread=true', { cookie: member.cookie });
    expect(unread.body.items.map((item: { id: string }) => item.id)).toEqual([unreadOne]);
    expect(unread.body.unreadCount).toBe(1);
    const all = await call('GET', '/api/v1/notifications?unread=false', { cookie: member.cookie });
    expect(all.body.items.map((item: { id: string }) => item.id)).toEqual([unreadOne, readOne]);
  });

  it.each([['limit=101'], ['limit=0'], ['unread=yes'], ['unread=1']])('answers 400 request.bad_request for %s', async (query) => {
    const response = await call('GET', `/api/v1/notifications?${query}`, { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('accepts limit=100 and answers an unreadable cursor with the first page', async () => {
    await addNotification(member, 'x@example.test');
    expect((await call('GET', '/api/v1/notifications?limit=100', { cookie: member.cookie })).status).toBe(200);
    const garbage = await call('GET', '/api/v1/notifications?cursor=%%%garbage', { cookie: member.cookie });
    expect(garbage.status).toBe(200);
    expect(garbage.body.items).toHaveLength(1);
  });

  it('needs notifications:read on a key', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const response = await call('GET', '/api/v1/notifications', { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'notifications:read' } });
    const { secret: reader } = await createApiKeyFor(member, ['notifications:read']);
    expect((await call('GET', '/api/v1/notifications', { key: reader })).status).toBe(200);
  });
});

describe('POST /api/v1/notifications/{id}/read', () => {
  it('marks read once, keeps the first date, answers the new unread count and tells the browsers', async () => {
    const id = await addNotification(member, 'a@example.test');
    await addNotification(member, 'b@example.test');
    let first: Awaited<ReturnType<typeof call<any>>> | undefined;
    const events = await eventsDuring(async () => {
      first = await call('POST', `/api/v1/notifications/${id}/read`, { cookie: member.cookie });
    });
    expect(first!.status).toBe(200);
    expect(first!.body.notification.readAt).toEqual(expect.stringMatching(/Z$/));
    expect(first!.body.unreadCount).toBe(1);
    expect(events).toEqual([{ event: 'notification.unread', payload: { unreadCount: 1 }, rooms: [`member:${member.id}`] }]);

    const again = await call('POST', `/api/v1/notifications/${id}/read`, { cookie: member.cookie });
    expect(again.body.notification.readAt).toBe(first!.body.notification.readAt);
  });

  it('answers 404 request.not_found for another member’s notification and leaves it unread', async () => {
    const id = await addNotification(other, 'theirs@example.test');
    const response = await call('POST', `/api/v1/notifications/${id}/read`, { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('request.not_found');
    expect((await db().notification.findUniqueOrThrow({ where: { id } })).readAt).toBeNull();
  });

  it('needs notifications:write on a key (read is not enough)', async () => {
    const id = await addNotification(member, 'a@example.test');
    const { secret } = await createApiKeyFor(member, ['notifications:read']);
    const response = await call('POST', `/api/v1/notifications/${id}/read`, { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('api_key.scope_missing');
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const response = await call('POST', '/api/v1/notifications/not-a-uuid/read', { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('POST /api/v1/notifications/read-all', () => {
  it('marks every unread notification of the member read and answers {updated}', async () => {
    await addNotification(member, 'a@example.test');
    await addNotification(member, 'b@example.test');
    const theirs = await addNotification(other, 'c@example.test');
    let response: Awaited<ReturnType<typeof call<any>>> | undefined;
    const events = await eventsDuring(async () => {
      response = await call('POST', '/api/v1/notifications/read-all', { cookie: member.cookie });
    });
    expect(response!.status).toBe(200);
    expect(response!.body).toEqual({ updated: 2, unreadCount: 0 });
    expect(events).toEqual([{ event: 'notification.unread', payload: { unreadCount: 0 }, rooms: [`member:${member.id}`] }]);
    expect((await db().notification.findUniqueOrThrow({ where: { id: theirs } })).readAt).toBeNull();

    const again = await call('POST', '/api/v1/notifications/read-all', { cookie: member.cookie });
    expect(again.body).toEqual({ updated: 0, unreadCount: 0 });
  });
});

describe('POST /api/v1/notifications/{id}/archive', () => {
  it('takes the notification out of the feed and the unread count; archiving again answers the same', async () => {
    const id = await addNotification(member, 'a@example.test');
    const response = await call('POST', `/api/v1/notifications/${id}/archive`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id, archived: true, unreadCount: 0 });
    expect((await call('GET', '/api/v1/notifications', { cookie: member.cookie })).body.items).toEqual([]);
    const again = await call('POST', `/api/v1/notifications/${id}/archive`, { cookie: member.cookie });
    expect(again.status).toBe(200);
  });

  it('answers 404 request.not_found for another member’s notification', async () => {
    const id = await addNotification(other, 'theirs@example.test');
    const response = await call('POST', `/api/v1/notifications/${id}/archive`, { cookie: member.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('request.not_found');
    expect((await db().notification.findUniqueOrThrow({ where: { id } })).archivedAt).toBeNull();
  });
});

describe('purgeArchivedNotifications', () => {
  it('deletes notifications archived more than 90 days ago and keeps the rest', async () => {
    const day = 24 * 3600 * 1000;
    const now = new Date();
    const old = await addNotification(member, 'old@example.test');
    const recent = await addNotification(member, 'recent@example.test');
    const oldButNotArchived = await addNotification(member, 'kept@example.test');
    await db().notification.update({ where: { id: old }, data: { archivedAt: new Date(now.getTime() - 91 * day) } });
    await db().notification.update({ where: { id: recent }, data: { archivedAt: new Date(now.getTime() - 89 * day) } });
    await db().notification.update({ where: { id: oldButNotArchived }, data: { createdAt: new Date(now.getTime() - 400 * day) } });

    expect(await purgeArchivedNotifications(now)).toBe(1);
    expect((await db().notification.findMany({ select: { id: true } })).map((row) => row.id).sort()).toEqual([recent, oldButNotArchived].sort());
  });
});

afterAll(async () => {
  await db().notification.deleteMany();
});
