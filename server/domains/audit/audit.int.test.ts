import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from '../../core/audit';
import { createMember, type TestMember } from '../../testing/factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  for (let i = 0; i < 7; i += 1) {
    await recordAudit({ memberId: member.id }, { action: 'test.thing', targetKind: 'thing', targetId: String(i) });
    // Entries of one millisecond are ordered by id, not by insertion: keep the expected order unambiguous.
    await sleep(3);
  }
  await recordAudit({ memberId: admin.id }, { action: 'test.other', targetKind: 'thing' });
  await recordAudit('system', { action: 'test.system', targetKind: 'thing' });
});

describe('GET /api/v1/admin/audit', () => {
  it('pages most recent first with a stable cursor, nextCursor null at the end', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/v1/admin/audit?action=test.thing&limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await call('GET', query, { cookie: admin.cookie });
      expect(response.status).toBe(200);
      seen.push(...response.body.entries.map((entry: { targetId: string }) => entry.targetId));
      cursor = response.body.nextCursor;
      // An entry written between pages must not shift the next page.
      await recordAudit({ memberId: member.id }, { action: 'test.thing', targetKind: 'thing', targetId: 'late' });
    } while (cursor);
    expect(seen).toEqual(['6', '5', '4', '3', '2', '1', '0']);
  });

  it('filters by actor and by since', async () => {
    const byActor = await call('GET', `/api/v1/admin/audit?actor=${admin.id}&action=test.other`, { cookie: admin.cookie });
    expect(byActor.body.entries).toHaveLength(1);
    expect(byActor.body.entries[0]).toMatchObject({ actorKind: 'member', actorMemberId: admin.id, action: 'test.other', details: {}, ip: null });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await call('GET', `/api/v1/admin/audit?since=${future}`, { cookie: admin.cookie })).body.entries).toEqual([]);
    const system = await call('GET', '/api/v1/admin/audit?action=test.system', { cookie: admin.cookie });
    expect(system.body.entries[0]).toMatchObject({ actorKind: 'system', actorMemberId: null });
  });

  it('answers an unreadable cursor with the first page', async () => {
    const first = await call('GET', '/api/v1/admin/audit?limit=2', { cookie: admin.cookie });
    const garbage = await call('GET', '/api/v1/admin/audit?limit=2&cursor=%%%garbage', { cookie: admin.cookie });
    expect(garbage.status).toBe(200);
    expect(garbage.body.entries).toEqual(first.body.entries);
  });

  it.each([['limit=0'], ['limit=201'], ['actor=not-a-uuid'], ['since=yesterday']])('answers 400 request.bad_request for %s', async (query) => {
    const response = await call('GET', `/api/v1/admin/audit?${query}`, { cookie: admin.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('is for administrators only', async () => {
    expect((await call('GET', '/api/v1/admin/audit', { cookie: member.cookie })).body.error.code).toBe('auth.forbidden');
  });
});
