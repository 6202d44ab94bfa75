import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { abortingAfter, adapterHarness, type AdapterHarness } from '../../../testing/fakes/adapter-harness';
import { startFakeGmail, type FakeGmailServer } from '../../../testing/fakes/gmail-server';
import { buildRawMessage } from '../../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../../testing/test-database';
import { ProviderAuthError, ProviderError, ProviderRateLimited } from '../provider-errors';
import type { ProviderLimits } from '../limits';
import { createGmailAdapter } from './adapter';
import { decodeGmailCursor } from './cursor';

await useTestDatabase();

const day = 86_400_000;
const now = Date.now();
let gmail: FakeGmailServer;

beforeAll(async () => {
  gmail = await startFakeGmail();
});
afterAll(async () => {
  await gmail?.close();
});

let serial = 0;
async function raw(subject: string, options: { from?: string; text?: string; date?: Date } = {}): Promise<Buffer> {
  serial += 1;
  return buildRawMessage({
    from: options.from ?? 'Alice <alice@example.test>',
    to: 'me@example.test',
    subject,
    text: options.text ?? `Body of ${subject}`,
    messageId: `<gmail-${serial}-${Date.now()}@example.test>`,
    date: options.date,
  });
}

async function deliver(subject: string, labelIds: string[] = ['INBOX', 'UNREAD'], ageDays = 1, text?: string): Promise<string> {
  const at = new Date(now - ageDays * day);
  return gmail.addMessage(await raw(subject, { date: at, text }), { labelIds, internalDate: at });
}

type Harness = AdapterHarness;

function harness(options: { limits?: Partial<ProviderLimits>; allowPrivate?: boolean; tokens?: string[] } = {}): Promise<Harness> {
  return adapterHarness(
    'mail_provider_a',
    ({ mailboxId, address, accessToken }) =>
      createGmailAdapter({ mailboxId, address, accessToken, baseUrl: gmail.baseUrl, allowPrivate: options.allowPrivate, limits: options.limits }),
    { tokens: options.tokens ?? ['gmail-token'], initialSince: new Date(now - 30 * day) },
  );
}

function clearMailbox(): void {
  for (const id of [...gmail.messages.keys()]) gmail.deleteMessage(id);
}

describe('Gmail adapter against the fake Gmail API', () => {
  it('lists labels as folders: system roles, the synthesised archive, user labels with their hierarchy', async () => {
    const work = gmail.createLabel('Work', '#16a766');
    const projects = gmail.createLabel('Work/Projects');
    const h = await harness();
    const folders = await h.folders();
    expect(folders.filter((folder) => folder.role).map((folder) => [folder.key, folder.role])).toEqual([
      ['INBOX', 'inbox'],
      ['STARRED', 'starred'],
      ['SENT', 'sent'],
      ['DRAFT', 'drafts'],
      ['ARCHIVE', 'archive'],
      ['SPAM', 'spam'],
      ['TRASH', 'trash'],
    ]);
    expect(folders.find((folder) => folder.key === work)).toMatchObject({ name: 'Work', parentKey: null, depth: 0, color: '#16a766' });
    expect(folders.find((folder) => folder.key === projects)).toMatchObject({ name: 'Projects', parentKey: work, depth: 1 });
    expect(folders.some((folder) => folder.key.startsWith('CATEGORY_') || folder.key === 'IMPORTANT' || folder.key === 'UNREAD')).toBe(false);
  });

  it('initial sync mirrors each folder\'s window with folders, labels and flags from the labels; then delta picks up changes', async () => {
    clearMailbox();
    const label = gmail.createLabel('Receipts');
    const inbox = await deliver('Inbox unread', ['INBOX', 'UNREAD', 'CATEGORY_PERSONAL', 'IMPORTANT']);
    const starred = await deliver('Starred read', ['INBOX', 'STARRED'], 2);
    const sent = await deliver('Sent by me', ['SENT'], 3);
    const toSelf = await deliver('Note to self', ['INBOX', 'SENT'], 3);
    const archived = await deliver('Archived receipt', [label], 4);
    const spam = await deliver('Spam', ['SPAM', 'UNREAD'], 5);
    const trash = await deliver('Trashed', ['TRASH'], 6);
    await deliver('Too old', ['INBOX'], 60);

    const h = await harness();
    await h.folders();
    const outcome = await h.adapter.syncDelta(await h.context());
    expect(outcome).toEqual({ inserted: 7, initialComplete: true });
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(rows.size).toBe(7);
    expect(rows.get(inbox)).toMatchObject({ folderKey: 'INBOX', labels: [], seen: false, flagged: false, subject: 'Inbox unread', ingestedVia: 'initial', bodyComplete: true });
    expect(rows.get(starred)).toMatchObject({ folderKey: 'INBOX', seen: true, flagged: true });
    expect(rows.get(sent)).toMatchObject({ folderKey: 'SENT', labels: [] });
    expect(rows.get(toSelf)).toMatchObject({ folderKey: 'INBOX', labels: ['SENT'] });
    expect(rows.get(archived)).toMatchObject({ folderKey: 'ARCHIVE', labels: [label] });
    expect(rows.get(spam)).toMatchObject({ folderKey: 'SPAM', seen: false });
    expect(rows.get(trash)).toMatchObject({ folderKey: 'TRASH' });
    const stored = await db().mailFolder.findFirstOrThrow({ where: { mailboxId: h.mailbox.id, key: 'INBOX' } });
    expect(decodeGmailCursor(stored.deltaToken).historyId).toMatch(/^\d+$/);

    // Delta: a new message, the member archives one, reads one, stars one, labels one, deletes one.
    const fresh = await deliver('Arrived later', ['INBOX', 'UNREAD'], 0);
    gmail.changeLabels(inbox, [], ['INBOX']);
    gmail.changeLabels(spam, [], ['UNREAD']);
    gmail.changeLabels(sent, ['STARRED', label], []);
    gmail.deleteMessage(trash);
    const delta = await h.adapter.syncDelta(await h.context());
    expect(delta).toEqual({ inserted: 1, initialComplete: true });
    const after = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(after.get(fresh)).toMatchObject({ folderKey: 'INBOX', seen: false, ingestedVia: 'delta', subject: 'Arrived later' });
    expect(after.get(inbox)).toMatchObject({ folderKey: 'ARCHIVE' });
    expect(after.get(spam)).toMatchObject({ seen: true });
    expect(after.get(sent)).toMatchObject({ folderKey: 'SENT', flagged: true, labels: [label] });
    expect(after.has(trash)).toBe(false);
    expect(after.size).toBe(7);

    // Nothing new: a delta changes nothing and asks only the history.
    const before = gmail.requests.length;
    expect(await h.adapter.syncDelta(await h.context())).toEqual({ inserted: 0, initialComplete: true });
    expect(gmail.requests.slice(before).map((request) => request.path)).toEqual(['/gmail/v1/users/me/history']);
  });

  it('reads the inbox newest first on an initial sync: its newest 50 are the first batch committed', async () => {
    clearMailbox();
    const count = 120;
    for (let index = 0; index < count; index += 1) await deliver(`Shuffled ${index}`, ['INBOX'], 1 + ((index * 37) % count) / 10);
    const h = await harness();
    await h.folders();
    const asked = gmail.requests.length;
    expect(await h.adapter.syncDelta(await h.context())).toMatchObject({ inserted: count, initialComplete: true });
    const rows = await db().mailMessage.findMany({ where: { mailboxId: h.mailbox.id }, select: { receivedAt: true, ingestedAt: true } });
    expect(rows).toHaveLength(count);
    // One batch is one transaction, and a row's ingested_at is its transaction's start.
    const firstAt = Math.min(...rows.map((row) => row.ingestedAt.getTime()));
    const first = rows.filter((row) => row.ingestedAt.getTime() === firstAt).map((row) => row.receivedAt.getTime());
    const newest = rows.map((row) => row.receivedAt.getTime()).sort((a, b) => b - a).slice(0, 50);
    expect(first.sort((a, b) => b - a)).toEqual(newest);
    const firstList = gmail.requests.slice(asked).find((request) => request.path.endsWith('/messages') && request.method === 'GET');
    expect(new URLSearchParams(firstList?.query).get('maxResults')).toBe('50');
  });

  it('an expired history id re-reads the window without duplicates and keeps following changes', async () => {
    clearMailbox();
    const first = await deliver('One');
    const second = await deliver('Two', ['INBOX'], 2);
    const h = await harness();
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    expect(await h.rows()).toHaveLength(2);

    gmail.expireHistory();
    const missed = await deliver('Missed while away', ['INBOX', 'UNREAD'], 0);
    gmail.changeLabels(second, ['STARRED'], ['INBOX']);
    const outcome = await h.adapter.syncDelta(await h.context());
    expect(outcome.inserted).toBe(1);
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect([...rows.keys()].sort()).toEqual([first, second, missed].sort());
    expect(rows.get(missed)).toMatchObject({ ingestedVia: 'resync' });
    expect(rows.get(second)).toMatchObject({ folderKey: 'ARCHIVE', flagged: true });

    const later = await deliver('After the resync', ['INBOX'], 0);
    expect((await h.adapter.syncDelta(await h.context())).inserted).toBe(1);
    expect((await h.rows()).find((row) => row.providerKey === later)).toMatchObject({ ingestedVia: 'delta' });
  });

  it('caps the initial window per folder, resumes after a crash mid-pass, and backfills older mail in slices', async () => {
    clearMailbox();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await deliver(`Inbox ${index}`, ['INBOX'], index + 1));
    for (let index = 0; index < 4; index += 1) ids.push(await deliver(`Old ${index}`, ['INBOX'], 40 + index));
    const h = await harness({ limits: { pageSize: 2 } });
    await h.folders();

    // Killed after the first page: the next run resumes with the second page, no duplicate.
    const stopping = abortingAfter(await h.context({ initialMaxPerFolder: 3 }), 2);
    await expect(h.adapter.syncDelta(stopping)).rejects.toThrow('lease lost');
    expect(await h.rows()).toHaveLength(2);
    const outcome = await h.adapter.syncDelta(await h.context({ initialMaxPerFolder: 3 }));
    expect(outcome.initialComplete).toBe(true);
    const mirrored = (await h.rows()).map((row) => row.providerKey);
    expect(mirrored).toEqual(ids.slice(0, 3));

    // Backfill: slices of 2 below the capped inbox, down to everything.
    const slices = [];
    for (let round = 0; round < 10; round += 1) {
      const slice = await h.adapter.backfill(await h.context(), { since: null, sliceSize: 2 });
      slices.push(slice);
      if (slice.done) break;
    }
    expect(slices.at(-1)).toMatchObject({ done: true, progressPct: 100 });
    expect(slices.reduce((sum, slice) => sum + slice.inserted, 0)).toBe(6);
    expect(slices.at(-1)!.oldestAt!.getTime()).toBe(now - 43 * day);
    expect(slices[0].progressPct).toBeGreaterThan(0);
    const all = await h.rows();
    expect(all.map((row) => row.providerKey)).toEqual(ids);
    expect(all.slice(3).every((row) => row.ingestedVia === 'backfill')).toBe(true);
    // A finished backfill answers done without asking Gmail again.
    const before = gmail.requests.length;
    expect(await h.adapter.backfill(await h.context(), { since: null, sliceSize: 2 })).toMatchObject({ inserted: 0, done: true });
    expect(gmail.requests.length).toBe(before);
  });

  it('a bounded backfill stops at its since date', async () => {
    clearMailbox();
    await deliver('Recent', ['INBOX'], 1);
    const wanted = await deliver('Forty days', ['INBOX'], 40);
    await deliver('Ninety days', ['INBOX'], 90);
    const h = await harness();
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    const slice = await h.adapter.backfill(await h.context(), { since: new Date(now - 60 * day), sliceSize: 50 });
    expect(slice).toMatchObject({ inserted: 1, done: true, progressPct: 100 });
    expect((await h.rows()).map((row) => row.providerKey)).toContain(wanted);
    expect(await h.rows()).toHaveLength(2);
  });

  it('resync refreshes labels of known messages and inserts missing ones silently', async () => {
    clearMailbox();
    const known = await deliver('Known', ['INBOX', 'UNREAD'], 1);
    const h = await harness();
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    gmail.expireHistory(); // changes below never reach the delta
    gmail.changeLabels(known, [], ['UNREAD']);
    const missing = await deliver('Missing', ['INBOX'], 2);
    expect(await h.adapter.resync(await h.context(), new Date(now - 10 * day))).toEqual({ inserted: 1, refreshed: 1 });
    const rows = new Map((await h.rows()).map((row) => [row.providerKey, row]));
    expect(rows.get(known)).toMatchObject({ seen: true });
    expect(rows.get(missing)).toMatchObject({ ingestedVia: 'resync' });
  });

  it('a message over the size bound is mirrored header-only; fetchContent answers the source, a part alone, null once gone', async () => {
    clearMailbox();
    const at = new Date(now - day);
    const bigSource = await buildRawMessage({
      from: 'Alice <alice@example.test>',
      to: 'me@example.test',
      subject: 'Big one',
      text: 'x'.repeat(200_000),
      date: at,
      attachments: [{ filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
    });
    const big = gmail.addMessage(bigSource, { labelIds: ['INBOX'], internalDate: at });
    const h = await harness({ limits: { maxSourceBytes: 50_000 } });
    await h.folders();
    await h.adapter.syncDelta(await h.context());
    expect((await h.rows())[0]).toMatchObject({ providerKey: big, subject: 'Big one', bodyComplete: false });
    const locator = { providerKey: big, folderKey: 'INBOX', uid: null, uidValidity: null };
    const whole = await h.adapter.fetchContent(locator);
    expect(whole?.complete).toBe(true);
    expect(whole?.content.equals(bigSource)).toBe(true);
    // Past the content bound: the header block, then the attachment alone by its MIME part number.
    const bounded = await harness({ limits: { maxContentBytes: 20_000 } });
    const head = await bounded.adapter.fetchContent(locator);
    expect(head?.complete).toBe(false);
    expect(head?.content.toString()).toContain('Subject: Big one');
    expect(await bounded.adapter.fetchContent(locator, { part: '2' })).toEqual({ content: Buffer.from('a,b\n1,2\n'), complete: true });
    expect((await bounded.adapter.fetchContent(locator, { part: '1' }))?.content.toString()).toBe('x'.repeat(200_000));
    expect(await bounded.adapter.fetchContent(locator, { part: '7' })).toBeNull();
    gmail.deleteMessage(big);
    expect(await h.adapter.fetchContent(locator)).toBeNull();
  });

  it('processing_only mirrors header blocks without downloading sources', async () => {
    clearMailbox();
    const id = await deliver('Headers only');
    const h = await harness();
    await h.folders();
    const before = gmail.requests.length;
    await h.adapter.syncDelta(await h.context({ syncMode: 'processing_only' }));
    expect((await h.rows())[0]).toMatchObject({ providerKey: id, subject: 'Headers only', bodyComplete: false });
    const gets = gmail.requests.slice(before).filter((request) => request.path.endsWith(`/messages/${id}`));
    expect(gets.map((request) => new URLSearchParams(request.query).get('format'))).toEqual(['metadata']);
  });

  it('keeps the List-Id (normalised) in full and processing_only modes', async () => {
    for (const syncMode of ['full', 'processing_only'] as const) {
      clearMailbox();
      const at = new Date(now - day);
      const source = await buildRawMessage({
        from: 'News <news@lists.example.test>',
        to: 'me@example.test',
        subject: `List mail ${syncMode}`,
        text: 'Body',
        messageId: `<gmail-list-${syncMode}-${Date.now()}@example.test>`,
        date: at,
        headers: { 'List-Id': 'Weekly News <Weekly.News.Example.TEST>' },
      });
      const id = gmail.addMessage(source, { labelIds: ['INBOX'], internalDate: at });
      const h = await harness();
      await h.folders();
      await h.adapter.syncDelta(await h.context({ syncMode }));
      const row = await db().mailMessage.findFirstOrThrow({ where: { providerKey: id } });
      expect(row).toMatchObject({ isMailingList: true, listId: 'weekly.news.example.test' });
    }
  });

  it('operations change the labels at Gmail', async () => {
    clearMailbox();
    const h = await harness();
    const folders = await h.folders();
    const op = async (id: string, action: string, params: Record<string, unknown> = {}, folderKey = 'INBOX') =>
      h.adapter.applyOperation({ action, params, message: { providerKey: id, folderKey, uid: null, uidValidity: null } }, folders);
    const labels = (id: string) => [...gmail.messages.get(id)!.labelIds].sort();
    const id = await deliver('Act on me', ['INBOX', 'UNREAD']);

    expect(await op(id, 'markRead')).toEqual({ moved: null, removed: false });
    expect(labels(id)).toEqual(['INBOX']);
    await op(id, 'flag');
    expect(labels(id)).toEqual(['INBOX', 'STARRED']);
    await op(id, 'unflag');
    await op(id, 'markUnread');
    expect(labels(id)).toEqual(['INBOX', 'UNREAD']);
    expect(await op(id, 'archive')).toEqual({ moved: { providerKey: id, folderKey: 'ARCHIVE', uid: null, uidValidity: null }, removed: false });
    expect(labels(id)).toEqual(['UNREAD']);
    await op(id, 'unarchive', {}, 'ARCHIVE');
    expect(labels(id)).toEqual(['INBOX', 'UNREAD']);
    expect((await op(id, 'trash')).moved?.folderKey).toBe('TRASH');
    expect(labels(id)).toContain('TRASH');
    expect((await op(id, 'restore', { toFolderKey: 'INBOX' }, 'TRASH')).moved?.folderKey).toBe('INBOX');
    expect(labels(id)).toEqual(['INBOX', 'UNREAD']);
    await op(id, 'spam');
    expect(labels(id)).toEqual(['SPAM', 'UNREAD']);
    await op(id, 'notSpam', {}, 'SPAM');
    expect(labels(id)).toEqual(['INBOX', 'UNREAD']);

    // A repeated operation asks for nothing.
    const modifies = gmail.requestsTo(/\/modify$/).length;
    await op(id, 'unarchive');
    expect(gmail.requestsTo(/\/modify$/).length).toBe(modifies);

    const travel = gmail.createLabel('Travel');
    const refreshed = await h.folders();
    expect((await h.adapter.applyOperation({ action: 'move', params: { toFolderKey: travel }, message: { providerKey: id, folderKey: 'INBOX', uid: null, uidValidity: null } }, refreshed)).moved?.folderKey).toBe('ARCHIVE');
    expect(labels(id)).toEqual([travel, 'UNREAD'].sort());
    await h.adapter.applyOperation({ action: 'labels', params: { labelsAdd: ['Brand new'], labelsRemove: [travel] }, message: { providerKey: id, folderKey: 'ARCHIVE', uid: null, uidValidity: null } }, refreshed);
    const created = [...gmail.labels.values()].find((label) => label.name === 'Brand new')!;
    expect(labels(id)).toEqual([created.id, 'UNREAD'].sort());

    await expect(op(id, 'move', { toFolderKey: 'SENT' })).rejects.toMatchObject({ code: 'provider.unsupported_operation', kind: 'permanent' });
    expect(await op(id, 'deletePermanently')).toEqual({ moved: null, removed: true });
    expect(gmail.messages.has(id)).toBe(false);
    expect(await op(id, 'markRead')).toEqual({ moved: null, removed: true });
  });

  it('rate limits become ProviderRateLimited with the wait; the next run resumes', async () => {
    clearMailbox();
    await deliver('Slow down');
    const h = await harness();
    await h.folders();
    gmail.failNext({ status: 429, retryAfter: '7', path: /\/messages$/ });
    const error = await h.adapter.syncDelta(await h.context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderRateLimited);
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 7, httpStatus: 429 });

    gmail.failNext({ status: 403, reason: 'userRateLimitExceeded', path: /\/messages$/ });
    await expect(h.adapter.syncDelta(await h.context())).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 30, providerCode: 'userRateLimitExceeded' });

    gmail.failNext({ status: 503, retryAfter: '12' });
    await expect(h.adapter.listFolders()).rejects.toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 12 });

    gmail.failNext({ status: 500 });
    await expect(h.adapter.listFolders()).rejects.toMatchObject({ kind: 'unreachable', code: 'provider.server_error' });

    expect((await h.adapter.syncDelta(await h.context())).inserted).toBe(1);
  });

  it('a 401 refreshes the token once; a second 401 is an auth error', async () => {
    const h = await harness({ tokens: ['expired-token', 'gmail-token'] });
    await h.folders();
    expect(h.tokenCalls).toEqual([undefined, { forceRefresh: true }]);

    const refused = await harness({ tokens: ['expired-token', 'still-wrong'] });
    const error = await refused.adapter.listFolders().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderAuthError);
    expect(error).toMatchObject({ kind: 'auth', code: 'provider.auth_failed', httpStatus: 401 });
    expect(refused.tokenCalls).toEqual([undefined, { forceRefresh: true }]);

    gmail.failNext({ status: 403, reason: 'insufficientPermissions' });
    await expect(h.adapter.listFolders()).rejects.toMatchObject({ kind: 'auth', code: 'provider.access_denied' });
  });

  it('the network guard refuses the fake\'s loopback address when private hosts are not allowed', async () => {
    const h = await harness({ allowPrivate: false });
    const before = gmail.requests.length;
    const error = await h.adapter.listFolders().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'unreachable', code: 'provider.address_not_allowed' });
    expect(gmail.requests.length).toBe(before);
  });

  it('stops between pages when the signal is aborted', async () => {
    const h = await harness();
    await h.folders();
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    const before = gmail.requests.length;
    await expect(h.adapter.syncDelta(await h.context({ signal: controller.signal }))).rejects.toThrow('shutting down');
    expect(gmail.requests.length).toBe(before);
  });
});
