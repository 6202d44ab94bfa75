import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { abortingAfter, adapterHarness, type AdapterHarness } from '../../../testing/fakes/adapter-harness';
import { startFakeGraph, type FakeGraphServer } from '../../../testing/fakes/graph-server';
import { buildRawMessage } from '../../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../../testing/test-database';
import type { ProviderLimits } from '../limits';
import { ProviderAuthError, ProviderRateLimited } from '../provider-errors';
import { createGraphAdapter } from './adapter';
import { decodeGraphCursor } from './cursor';

await useTestDatabase();

const day = 86_400_000;
const now = Math.floor(Date.now() / 1000) * 1000;
let graph: FakeGraphServer;
let mutable: FakeGraphServer;

beforeAll(async () => {
  graph = await startFakeGraph();
  mutable = await startFakeGraph({ idMode: 'mutable' });
});
afterAll(async () => {
  await graph?.close();
  await mutable?.close();
});

let serial = 0;
async function deliver(
  server: FakeGraphServer,
  subject: string,
  options: { folder?: string; ageDays?: number; isRead?: boolean; flagged?: boolean; categories?: string[]; text?: string; headers?: Record<string, string> } = {},
): Promise<string> {
  serial += 1;
  const at = new Date(now - (options.ageDays ?? 1) * day);
  const raw = await buildRawMessage({
    from: 'Bob <bob@example.test>',
    to: 'me@example.test',
    subject,
    text: options.text ?? `Body of ${subject}`,
    messageId: `<graph-${serial}-${now}@example.test>`,
    date: at,
    headers: options.headers,
  });
  return server.addMessage(raw, { folder: options.folder, receivedDateTime: at, isRead: options.isRead, flagged: options.flagged, categories: options.categories });
}

function harness(server: FakeGraphServer, options: { limits?: Partial<ProviderLimits>; allowPrivate?: boolean; tokens?: string[] } = {}): Promise<AdapterHarness> {
  return adapterHarness(
    'mail_provider_b',
    ({ mailboxId, address, accessToken }) =>
      createGraphAdapter({ mailboxId, address, accessToken, baseUrl: server.baseUrl, allowPrivate: options.allowPrivate, limits: options.limits }),
    { tokens: options.tokens ?? ['graph-token'], initialSince: new Date(now - 30 * day) },
  );
}

function clear(server: FakeGraphServer): void {
  for (const id of [...server.messages.keys()]) server.deleteMessage(id);
}

const locator = (providerKey: string, folderKey: string) => ({ providerKey, folderKey, uid: null, uidValidity: null });

describe('Graph adapter against the fake Graph API', () => {
  it('lists mail folders: well-known names as keys with their roles, children with their parent', async () => {
    const projects = graph.createFolder('Projects');
    const q1 = graph.createFolder('Q1', projects);
    const h = await harness(graph);
    const folders = await h.folders();
    const byKey = new Map(folders.map((folder) => [folder.key, folder]));
    expect(byKey.get('inbox')).toMatchObject({ role: 'inbox', name: 'Inbox', providerId: graph.folderId('inbox'), parentKey: null, depth: 0 });
    expect(byKey.get('sentitems')?.role).toBe('sent');
    expect(byKey.get('drafts')?.role).toBe('drafts');
    expect(byKey.get('deleteditems')?.role).toBe('trash');
    expect(byKey.get('junkemail')?.role).toBe('spam');
    expect(byKey.get('archive')?.role).toBe('archive');
    expect(byKey.get(projects)).toMatchObject({ role: null, name: 'Projects', parentKey: null, depth: 0 });
    expect(byKey.get(q1)).toMatchObject({ role: null, name: 'Q1', parentKey: projects, depth: 1 });
    // Requests carry the immutable-id preference.
    expect(graph.requests.at(-1)?.prefer).toContain('IdType="ImmutableId"');
  });

  it('initial sync per folder, then delta: new, read, flagged, categorised, moved (same id), deleted', async () => {
    clear(graph);
    const unread = await deliver(graph, 'Unread in inbox', { categories: ['Blue category'] });
    const flagged = await deliver(graph, 'Flagged', { isRead: true, flagged: true, ageDays: 2 });
    const sent = await deliver(graph, 'Sent one', { folder: 'sentitems', isRead: true, ageDays: 3 });
    const junk = await deliver(graph, 'Junk', { folder: 'junkemail', ageDays: 4 });
    await deliver(graph, 'Too old', { ageDays: 45 });

    const h = await harness(graph, { limits: { deltaPageSize: 2 } });
    await h.folders();
    expect(await h.adapter.syncDelta(await h.context())).toEqual({ inserted: 4, initialComplete: true });
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(rows.get(unread)).toMatchObject({ folderKey: 'inbox', seen: false, flagged: false, labels: ['Blue category'], subject: 'Unread in inbox', ingestedVia: 'initial', bodyComplete: true });
    expect(rows.get(flagged)).toMatchObject({ seen: true, flagged: true });
    expect(rows.get(sent)).toMatchObject({ folderKey: 'sentitems' });
    expect(rows.get(junk)).toMatchObject({ folderKey: 'junkemail' });
    const inbox = (await h.context()).folders.find((folder) => folder.key === 'inbox')!;
    expect(decodeGraphCursor(inbox.deltaToken).delta).toContain('$deltatoken=');

    const fresh = await deliver(graph, 'Arrived later', { ageDays: 0 });
    graph.updateMessage(unread, { isRead: true, categories: [] });
    graph.updateMessage(sent, { flagStatus: 'flagged' });
    const moved = graph.moveMessage(flagged, 'archive');
    expect(moved).toBe(flagged);
    graph.deleteMessage(junk);
    expect(await h.adapter.syncDelta(await h.context())).toEqual({ inserted: 1, initialComplete: true });
    const after = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(after.get(fresh)).toMatchObject({ folderKey: 'inbox', ingestedVia: 'delta', subject: 'Arrived later' });
    expect(after.get(unread)).toMatchObject({ seen: true, labels: [] });
    expect(after.get(sent)).toMatchObject({ flagged: true });
    expect(after.get(flagged)).toMatchObject({ folderKey: 'archive', ingestedVia: 'initial' });
    expect(after.has(junk)).toBe(false);
    expect(after.size).toBe(4);
  });

  it('reads the inbox newest first on an initial sync: its newest 50 are the first batch committed', async () => {
    clear(graph);
    // Delivered out of date order: the order Graph keeps without $orderby is not the one asked for.
    const count = 120;
    for (let index = 0; index < count; index += 1) await deliver(graph, `Shuffled ${index}`, { ageDays: 1 + ((index * 37) % count) / 10 });
    const h = await harness(graph);
    await h.folders();
    const asked = graph.requests.length;
    expect(await h.adapter.syncDelta(await h.context())).toMatchObject({ inserted: count, initialComplete: true });
    const rows = await db().mailMessage.findMany({ where: { mailboxId: h.mailbox.id }, select: { receivedAt: true, ingestedAt: true } });
    expect(rows).toHaveLength(count);
    // One batch is one transaction, and a row's ingested_at is its transaction's start.
    const firstAt = Math.min(...rows.map((row) => row.ingestedAt.getTime()));
    const first = rows.filter((row) => row.ingestedAt.getTime() === firstAt).map((row) => row.receivedAt.getTime());
    const newest = rows.map((row) => row.receivedAt.getTime()).sort((a, b) => b - a).slice(0, 50);
    expect(first.sort((a, b) => b - a)).toEqual(newest);
    const firstDelta = graph.requests.slice(asked).find((request) => request.path.endsWith('/messages/delta'));
    expect(new URLSearchParams(firstDelta?.query).get('$orderby')).toBe('receivedDateTime desc');
    expect(firstDelta?.prefer).toContain('odata.maxpagesize=50');
  });

  it('without immutable ids a move is a removal plus a new message, never a duplicate', async () => {
    const id = await deliver(mutable, 'Will move');
    const h = await harness(mutable);
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    const newId = mutable.moveMessage(id, 'archive');
    expect(newId).not.toBe(id);
    await h.adapter.syncDelta(await h.context());
    const rows = await h.rows();
    expect(rows.map((row) => [row.providerKey, row.folderKey])).toEqual([[newId, 'archive']]);

    // An operation's move answers the new id.
    const applied = await h.adapter.applyOperation({ action: 'unarchive', params: {}, message: locator(newId, 'archive') }, await h.folders());
    expect(applied.moved?.folderKey).toBe('inbox');
    expect(applied.moved?.providerKey).not.toBe(newId);
    expect(mutable.messages.get(applied.moved!.providerKey)?.folderId).toBe(mutable.folderId('inbox'));

    // Applied again with the old id (the runner died before recording the new one): found by Message-ID.
    const { messageIdHeader } = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: h.mailbox.id }, select: { messageIdHeader: true } });
    const retried = await h.adapter.applyOperation({ action: 'unarchive', params: {}, message: { ...locator(newId, 'archive'), messageIdHeader } }, await h.folders());
    expect(retried).toEqual({ moved: locator(applied.moved!.providerKey, 'inbox'), removed: false });
    expect(mutable.requestsTo(/\/move$/)).toHaveLength(1);
  });

  it('caps the initial window per folder without skipping, resumes a killed round, and backfills below it', async () => {
    clear(graph);
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await deliver(graph, `Inbox ${index}`, { ageDays: index + 1 }));
    for (let index = 0; index < 3; index += 1) ids.push(await deliver(graph, `Old ${index}`, { ageDays: 50 + index }));
    const h = await harness(graph, { limits: { deltaPageSize: 1 } });
    await h.folders();

    await expect(h.adapter.syncDelta(abortingAfter(await h.context({ initialMaxPerFolder: 3 }), 2))).rejects.toThrow('lease lost');
    expect(await h.rows()).toHaveLength(2);
    expect(await h.adapter.syncDelta(await h.context({ initialMaxPerFolder: 3 }))).toMatchObject({ initialComplete: true });
    expect((await h.rows()).map((row) => row.providerKey)).toEqual(ids.slice(0, 3));

    const slices = [];
    for (let round = 0; round < 10; round += 1) {
      const slice = await h.adapter.backfill(await h.context(), { since: null, sliceSize: 2 });
      slices.push(slice);
      if (slice.done) break;
    }
    expect(slices.at(-1)).toMatchObject({ done: true, progressPct: 100 });
    expect(slices.reduce((sum, slice) => sum + slice.inserted, 0)).toBe(5);
    expect(slices.at(-1)!.oldestAt!.getTime()).toBe(now - 52 * day);
    expect(slices[0].progressPct).toBeGreaterThan(0);
    const rows = await h.rows();
    expect(rows.map((row) => row.providerKey)).toEqual(ids);
    expect(rows.slice(3).every((row) => row.ingestedVia === 'backfill')).toBe(true);

    // A bounded request later goes no deeper than asked.
    expect(await h.adapter.backfill(await h.context(), { since: new Date(now - 51 * day), sliceSize: 10 })).toMatchObject({ inserted: 0, done: true });
  });

  it('a backfill run past its time reads one page, never none, and the runs after it finish the walk', async () => {
    clear(graph);
    const ids: string[] = [];
    ids.push(await deliver(graph, 'Recent', { ageDays: 1 }));
    for (let index = 0; index < 4; index += 1) ids.push(await deliver(graph, `Old ${index}`, { ageDays: 50 + index }));
    const h = await harness(graph, { limits: { pageSize: 1 } });
    await h.folders();
    expect(await h.adapter.syncDelta(await h.context())).toMatchObject({ initialComplete: true });
    const runs = [];
    for (let round = 0; round < 20; round += 1) {
      // No time at all: each run reads its first page (one message, or a folder's empty last page) and hands the connection back.
      const run = await h.adapter.backfill(await h.context(), { since: null, sliceSize: 1000, until: 0 });
      runs.push(run);
      if (run.done) break;
    }
    expect(runs.slice(0, 4).map((run) => run.inserted)).toEqual([1, 1, 1, 1]);
    expect(runs.at(-1)).toMatchObject({ done: true, progressPct: 100 });
    expect((await h.rows()).map((row) => row.providerKey)).toEqual(ids);
  });

  it('expired delta state (410) re-reads the folder window without duplicates', async () => {
    clear(graph);
    const kept = await deliver(graph, 'Kept');
    const h = await harness(graph);
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    graph.expireDeltaTokens();
    const missed = await deliver(graph, 'Missed', { ageDays: 0 });
    graph.updateMessage(kept, { isRead: true });
    expect((await h.adapter.syncDelta(await h.context())).inserted).toBe(1);
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect([...rows.keys()].sort()).toEqual([kept, missed].sort());
    expect(rows.get(missed)?.ingestedVia).toBe('resync');
    expect(rows.get(kept)?.seen).toBe(true);
    const next = await deliver(graph, 'Next', { ageDays: 0 });
    expect((await h.adapter.syncDelta(await h.context())).inserted).toBe(1);
    expect((await h.rows()).find((row) => row.providerKey === next)?.ingestedVia).toBe('delta');
  });

  it('resync refreshes known messages and inserts missing ones silently', async () => {
    clear(graph);
    const known = await deliver(graph, 'Known');
    const h = await harness(graph);
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    graph.expireDeltaTokens();
    graph.updateMessage(known, { flagStatus: 'flagged' });
    const missing = await deliver(graph, 'Missing', { folder: 'archive', ageDays: 3 });
    const outcome = await h.adapter.resync(await h.context(), new Date(now - 10 * day));
    expect(outcome).toEqual({ inserted: 1, refreshed: 1 });
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(rows.get(known)?.flagged).toBe(true);
    expect(rows.get(missing)).toMatchObject({ folderKey: 'archive', ingestedVia: 'resync' });
  });

  it('a message over the size bound is mirrored header-only; fetchContent answers the MIME, null once gone', async () => {
    clear(graph);
    const big = await deliver(graph, 'Large', { text: 'y'.repeat(100_000) });
    const h = await harness(graph, { limits: { maxSourceBytes: 20_000 } });
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    expect((await h.rows())[0]).toMatchObject({ providerKey: big, subject: 'Large', bodyComplete: false });
    expect(await h.adapter.fetchContent(locator(big, 'inbox'))).toEqual({ content: graph.messages.get(big)!.raw, complete: true });
    // Past the content bound: the beginning, marked incomplete; a single part is not addressable in Graph.
    const bounded = await harness(graph, { limits: { maxContentBytes: 5_000 } });
    const cut = await bounded.adapter.fetchContent(locator(big, 'inbox'));
    expect(cut?.complete).toBe(false);
    expect(cut?.content.equals(graph.messages.get(big)!.raw.subarray(0, 5_000))).toBe(true);
    expect(await bounded.adapter.fetchContent(locator(big, 'inbox'), { part: '2' })).toBeNull();
    graph.deleteMessage(big);
    expect(await h.adapter.fetchContent(locator(big, 'inbox'))).toBeNull();
  });

  it('processing_only mirrors header blocks without downloading MIME', async () => {
    clear(graph);
    const id = await deliver(graph, 'Headers only');
    const h = await harness(graph);
    await h.folders();
    const before = graph.requests.length;
    await h.adapter.syncDelta(await h.context({ syncMode: 'processing_only' }));
    expect((await h.rows())[0]).toMatchObject({ providerKey: id, subject: 'Headers only', bodyComplete: false });
    expect(graph.requests.slice(before).some((request) => request.path.endsWith('/$value'))).toBe(false);
  });

  it('keeps the List-Id (normalised) in full and processing_only modes', async () => {
    for (const syncMode of ['full', 'processing_only'] as const) {
      clear(graph);
      const id = await deliver(graph, `List mail ${syncMode}`, { headers: { 'List-Id': 'Weekly News <Weekly.News.Example.TEST>' } });
      const h = await harness(graph);
      await h.folders();
      await h.adapter.syncDelta(await h.context({ syncMode }));
      const row = await db().mailMessage.findFirstOrThrow({ where: { providerKey: id } });
      expect(row).toMatchObject({ isMailingList: true, listId: 'weekly.news.example.test' });
    }
  });

  it('operations change the message at Graph', async () => {
    clear(graph);
    const h = await harness(graph);
    const folders = await h.folders();
    const op = (id: string, action: string, params: Record<string, unknown> = {}, folderKey = 'inbox') => h.adapter.applyOperation({ action, params, message: locator(id, folderKey) }, folders);
    const id = await deliver(graph, 'Act on me');
    const state = () => graph.messages.get(id)!;

    expect(await op(id, 'markRead')).toEqual({ moved: null, removed: false });
    expect(state().isRead).toBe(true);
    await op(id, 'markUnread');
    expect(state().isRead).toBe(false);
    await op(id, 'flag');
    expect(state().flagStatus).toBe('flagged');
    await op(id, 'unflag');
    expect(state().flagStatus).toBe('notFlagged');
    await op(id, 'labels', { labelsAdd: ['Red', 'Green'], labelsRemove: [] });
    await op(id, 'labels', { labelsAdd: [], labelsRemove: ['red'] });
    expect(state().categories).toEqual(['Green']);

    expect(await op(id, 'archive')).toEqual({ moved: locator(id, 'archive'), removed: false });
    expect(state().folderId).toBe(graph.folderId('archive'));
    expect((await op(id, 'trash', {}, 'archive')).moved).toEqual(locator(id, 'deleteditems'));
    expect((await op(id, 'restore', { toFolderKey: 'inbox' }, 'deleteditems')).moved).toEqual(locator(id, 'inbox'));
    expect((await op(id, 'spam')).moved?.folderKey).toBe('junkemail');
    expect((await op(id, 'notSpam', {}, 'junkemail')).moved?.folderKey).toBe('inbox');
    const custom = folders.find((folder) => folder.role === null && folder.name === 'Projects')!;
    expect((await op(id, 'move', { toFolderKey: custom.key })).moved?.folderKey).toBe(custom.key);
    expect(state().folderId).toBe(custom.providerId);

    // A repeated move does not move again.
    const moves = graph.requestsTo(/\/move$/).length;
    expect(await op(id, 'move', { toFolderKey: custom.key }, custom.key)).toEqual({ moved: null, removed: false });
    expect(graph.requestsTo(/\/move$/).length).toBe(moves);

    await expect(op(id, 'snooze')).rejects.toMatchObject({ code: 'provider.unsupported_operation' });
    expect(await op(id, 'deletePermanently')).toEqual({ moved: null, removed: true });
    expect(graph.messages.has(id)).toBe(false);
    expect(await op(id, 'markRead')).toEqual({ moved: null, removed: true });
  });

  it('429 and 503 with Retry-After become ProviderRateLimited; the round resumes afterwards', async () => {
    clear(graph);
    await deliver(graph, 'Throttled');
    const h = await harness(graph);
    await h.folders();
    graph.failNext({ status: 429, retryAfter: '11', reason: 'ApplicationThrottled', path: /\/delta$/ });
    const error = await h.adapter.syncDelta(await h.context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderRateLimited);
    expect(error).toMatchObject({ retryAfterSeconds: 11, providerCode: 'ApplicationThrottled', httpStatus: 429 });
    graph.failNext({ status: 503, retryAfter: '4' });
    await expect(h.adapter.syncDelta(await h.context())).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 4 });
    expect((await h.adapter.syncDelta(await h.context())).inserted).toBe(1);
  });

  it('a 401 refreshes the token once; a second 401 is an auth error', async () => {
    const h = await harness(graph, { tokens: ['stale', 'graph-token'] });
    await h.adapter.fetchContent(locator('AAMkAGnothing=', 'inbox'));
    expect(h.tokenCalls).toEqual([undefined, { forceRefresh: true }]);
    const refused = await harness(graph, { tokens: ['stale', 'still-stale'] });
    const error = await refused.adapter.listFolders().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error).toMatchObject({ code: 'provider.auth_failed', providerCode: 'InvalidAuthenticationToken' });
    expect(refused.tokenCalls).toEqual([undefined, { forceRefresh: true }]);
  });

  it('the network guard refuses the fake\'s loopback address when private hosts are not allowed', async () => {
    const h = await harness(graph, { allowPrivate: false });
    const before = graph.requests.length;
    await expect(h.adapter.listFolders()).rejects.toMatchObject({ kind: 'unreachable', code: 'provider.address_not_allowed' });
    expect(graph.requests.length).toBe(before);
  });
});
