import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { prototypeNames } from '../../../testing/prototype-names';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string };
let second: { id: string };
const base = Date.parse('2026-01-10T12:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

type Listed = { threads: { id: string; subject: string | null; mailboxId: string }[]; nextCursor: string | null; error?: { code: string } };
const list = async (query: string, who: TestMember = member) => call<Listed>('GET', `/api/v1/threads${query}`, { cookie: who.cookie });
const subjects = (body: Listed) => body.threads.map((thread) => thread.subject);

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member);
  second = await createMailbox(member);
  await db().mailFolder.createMany({
    data: [
      { mailboxId: mailbox.id, key: 'Projects', name: 'Projects' },
      { mailboxId: mailbox.id, key: 'Projects/Alpha', name: 'Alpha', parentKey: 'Projects', depth: 1 },
    ],
  });
  // Twelve inbox threads, one a minute; a few others in other folders and the second mailbox.
  for (let i = 0; i < 12; i += 1) {
    await createMessage(mailbox, { subject: `Inbox ${i}`, receivedAt: at(i), seen: i % 3 !== 0, flagged: i === 5, hasAttachments: i === 7, snippet: i === 4 ? 'the quarterly report is ready' : 'hello there' });
  }
  await createMessage(mailbox, { subject: 'Archived invoice', folderKey: 'Archive', receivedAt: at(20) });
  await createMessage(mailbox, { subject: 'Trashed invoice', folderKey: 'Trash', receivedAt: at(21) });
  await createMessage(mailbox, { subject: 'Spam invoice', folderKey: 'Junk', receivedAt: at(22), flagged: true });
  await createMessage(mailbox, { subject: 'Alpha kickoff', folderKey: 'Projects/Alpha', receivedAt: at(23), fromEmail: 'carla@acme.test', fromName: 'Carla Diaz' });
  await createMessage(second, { subject: 'Second box invoice', receivedAt: at(30) });
  const otherBox = await createMailbox(other);
  await createMessage(otherBox, { subject: 'Not yours invoice', receivedAt: at(40) });
});

describe('GET /api/v1/threads', () => {
  it('lists the inbox of every mailbox by default, newest first, with the spec fields', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(subjects(response.body)).toEqual(['Second box invoice', ...Array.from({ length: 12 }, (_, i) => `Inbox ${11 - i}`)]);
    expect(response.body.nextCursor).toBeNull();
    const thread = response.body.threads.find((item) => item.subject === 'Inbox 5');
    expect(thread).toEqual({
      id: expect.any(String),
      mailboxId: mailbox.id,
      subject: 'Inbox 5',
      lastMessageAt: at(5).toISOString(),
      messageCount: 1,
      unreadCount: 0,
      // The thread's columns come from its message, as the sync computes them.
      participants: [{ name: 'Sender', email: 'sender@example.test' }],
      participantCount: 1,
      snippet: 'hello there',
      hasAttachments: false,
      flags: { seen: true, flagged: true, draft: false, sent: false },
      classification: {},
    });
  });

  it('pages with a cursor stable against insertion, nextCursor null at the end', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response: Awaited<ReturnType<typeof list>> = await list(`?mailboxId=${mailbox.id}&limit=5${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...subjects(response.body).map(String));
      cursor = response.body.nextCursor;
      pages += 1;
      // Mail arriving between pages goes to the top; it never shifts what the next page holds.
      if (pages === 1) await createMessage(mailbox, { subject: 'Late arrival', receivedAt: at(100) });
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `Inbox ${11 - i}`));
    expect(pages).toBe(3);
    expect(subjects((await list(`?mailboxId=${mailbox.id}&limit=1`)).body)).toEqual(['Late arrival']);
  });

  it('answers an unreadable cursor with the first page', async () => {
    const first = await list(`?mailboxId=${mailbox.id}&limit=2`);
    const garbage = await list(`?mailboxId=${mailbox.id}&limit=2&cursor=not-a-cursor`);
    expect(garbage.status).toBe(200);
    expect(garbage.body.threads).toEqual(first.body.threads);
  });

  it.each([
    ['limit=201'],
    ['limit=0'],
    ['limit=abc'],
    ['filter=starred'],
    ['folder=Nowhere'],
    ['folder='],
    ['searchEverywhere=yes'],
    ['mailboxId=not-a-uuid'],
    [`q=${'x'.repeat(201)}`],
    ['q=a b c d e f g h i j k'],
  ])('answers 400 request.bad_request for %s', async (query) => {
    const response = await list(`?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'request.bad_request' } });
  });

  it('answers 400 for a mailbox of another member, the same as for no mailbox', async () => {
    const otherBox = await db().mailbox.findFirstOrThrow({ where: { memberId: other.id } });
    const foreign = await list(`?mailboxId=${otherBox.id}`);
    const unknown = await list('?mailboxId=00000000-0000-4000-8000-000000000000');
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual(unknown.body);
  });

  it('takes a role name or a folder key; all leaves out trash and spam; starred is flagged', async () => {
    expect(subjects((await list('?folder=archive')).body)).toEqual(['Archived invoice']);
    expect(subjects((await list(`?folder=Archive&mailboxId=${mailbox.id}`)).body)).toEqual(['Archived invoice']);
    expect(subjects((await list('?folder=trash')).body)).toEqual(['Trashed invoice']);
    expect(subjects((await list('?folder=spam')).body)).toEqual(['Spam invoice']);
    expect(subjects((await list('?folder=Projects/Alpha')).body)).toEqual(['Alpha kickoff']);
    expect(subjects((await list('?folder=Projects')).body)).toEqual([]);
    const all = subjects((await list('?folder=all&limit=200')).body);
    expect(all).toContain('Archived invoice');
    expect(all).toContain('Alpha kickoff');
    expect(all).not.toContain('Trashed invoice');
    expect(all).not.toContain('Spam invoice');
    expect(subjects((await list('?folder=starred')).body)).toEqual(['Inbox 5']);
  });

  it('filters unread, flagged and attachments', async () => {
    expect(subjects((await list(`?mailboxId=${mailbox.id}&filter=unread`)).body)).toEqual(['Late arrival', 'Inbox 9', 'Inbox 6', 'Inbox 3', 'Inbox 0']);
    expect(subjects((await list(`?mailboxId=${mailbox.id}&filter=flagged`)).body)).toEqual(['Inbox 5']);
    expect(subjects((await list(`?mailboxId=${mailbox.id}&filter=attachments`)).body)).toEqual(['Inbox 7']);
  });

  it('searches the folder with q, everywhere with searchEverywhere', async () => {
    expect(subjects((await list('?q=invoice')).body)).toEqual(['Second box invoice']);
    expect(subjects((await list('?q=invoice&folder=trash')).body)).toEqual(['Trashed invoice']);
    expect(subjects((await list('?q=invoice&searchEverywhere=true')).body)).toEqual(['Second box invoice', 'Spam invoice', 'Trashed invoice', 'Archived invoice']);
    expect(subjects((await list('?q=invo&searchEverywhere=true&mailboxId=' + mailbox.id)).body)).toHaveLength(3);
    expect(subjects((await list('?searchEverywhere=false&q=invoice')).body)).toEqual(['Second box invoice']);
  });

  it('follows the q grammar: phrases, from:, exclusions', async () => {
    expect(subjects((await list(`?q=${encodeURIComponent('"quarterly report"')}`)).body)).toEqual(['Inbox 4']);
    expect(subjects((await list(`?q=${encodeURIComponent('"report quarterly"')}`)).body)).toEqual([]);
    expect(subjects((await list(`?folder=all&q=${encodeURIComponent('from:carla@acme')}`)).body)).toEqual(['Alpha kickoff']);
    expect(subjects((await list(`?folder=all&q=${encodeURIComponent('from:"Carla Diaz" kickoff')}`)).body)).toEqual(['Alpha kickoff']);
    expect(subjects((await list(`?folder=all&q=${encodeURIComponent('kickoff -alpha')}`)).body)).toEqual([]);
    expect(subjects((await list(`?searchEverywhere=true&q=${encodeURIComponent('invoice -spam -trashed -"second box"')}`)).body)).toEqual(['Archived invoice']);
    expect((await list(`?q=${encodeURIComponent("it's \\ a 'quote'")}`)).status).toBe(200);
  });

  it('never lists another member’s threads', async () => {
    const everything = await list('?searchEverywhere=true&limit=200');
    expect(subjects(everything.body)).not.toContain('Not yours invoice');
    expect(subjects((await list('?folder=all', other)).body)).toEqual(['Not yours invoice']);
  });

  it('treats prototype-named query keys and values as any other', async () => {
    for (const name of prototypeNames) {
      const key = await list(`?${encodeURIComponent(name)}=x`);
      expect(key.status, name).toBe(200);
      const folder = await list(`?folder=${encodeURIComponent(name)}`);
      expect(folder.status, name).toBe(400);
      expect(folder.body.error?.code).toBe('request.bad_request');
      expect((await list(`?q=${encodeURIComponent(name)}`)).status, name).toBe(200);
    }
  });

  it('needs messages:read', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const response = await call('GET', '/api/v1/threads', { key: secret });
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'messages:read' } });
    const { secret: reader } = await createApiKeyFor(member, ['messages:read']);
    expect((await call('GET', '/api/v1/threads', { key: reader })).status).toBe(200);
  });

  it('lists nothing for a member without mailboxes, and still refuses an unknown folder', async () => {
    const lonely = await createMember();
    expect((await list('', lonely)).body).toEqual({ threads: [], nextCursor: null });
    expect((await list('?folder=Projects', lonely)).status).toBe(400);
  });
});

describe('GET /api/v1/threads/{id}', () => {
  it('answers the thread and its messages oldest first', async () => {
    const first = await createMessage(mailbox, { subject: 'Conversation', receivedAt: at(200), fromEmail: 'ann@example.test', fromName: 'Ann' });
    await createMessage(mailbox, { threadId: first.threadId!, subject: 'Re: Conversation', receivedAt: at(201), folderKey: 'Sent' });
    const response = await call('GET', `/api/v1/threads/${first.threadId}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.thread).toMatchObject({ id: first.threadId, messageCount: 2, lastMessageAt: at(201).toISOString() });
    expect(response.body.messages.map((message: { subject: string }) => message.subject)).toEqual(['Conversation', 'Re: Conversation']);
    expect(response.body.messages[0]).toEqual({
      id: first.id,
      mailboxId: mailbox.id,
      from: { name: 'Ann', email: 'ann@example.test' },
      subject: 'Conversation',
      snippet: 'A short preview',
      receivedAt: at(200).toISOString(),
      folderLabels: ['INBOX'],
      flags: { seen: false, flagged: false, draft: false, sent: false },
      signals: { isAutoReply: false, isNoReply: false, isMailingList: false, isFromSelf: false, isBulk: false, isDeliveryReport: false, isCalendar: false },
      hasAttachments: false,
    });
    expect(response.body.messages[1].folderLabels).toEqual(['Sent']);
  });

  it('answers 404 request.not_found, never 403, for another member’s thread, the same as for none', async () => {
    const theirs = await db().mailThread.findFirstOrThrow({ where: { mailbox: { memberId: other.id } } });
    const foreign = await call('GET', `/api/v1/threads/${theirs.id}`, { cookie: member.cookie });
    const unknown = await call('GET', '/api/v1/threads/00000000-0000-4000-8000-000000000000', { cookie: member.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'request.not_found', message: 'No such thread.', details: {} } });
    expect(unknown.body).toEqual(foreign.body);
  });
});
