import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { closeSanitizePool } from '../../../mail/sanitize/sanitize-pool';
import { createApiKeyFor, createMember, type TestMember } from '../../../testing/factories';
import { createMirrorSink } from '../../../mail/mirror/writer';
import { corpusMailbox, corpusMessage } from '../../../testing/mail-corpus';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { prototypeNames } from '../../../testing/prototype-names';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string };
let foreignMessageId: string;
const base = Date.parse('2026-02-01T08:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

type Listed = { messages: { id: string; subject: string | null }[]; nextCursor: string | null };
const list = (query: string, who: TestMember = member) => call<Listed>('GET', `/api/v1/messages${query}`, { cookie: who.cookie });
const subjects = (body: Listed) => body.messages.map((message) => message.subject);

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member);
  for (let i = 0; i < 7; i += 1) await createMessage(mailbox, { subject: `Message ${i}`, receivedAt: at(i), folderKey: i === 6 ? 'Trash' : 'INBOX' });
  await createMessage(mailbox, { subject: 'Budget review', snippet: 'numbers for the board', receivedAt: at(10), fromEmail: 'zoe@finance.test' });
  const theirs = await createMessage(await createMailbox(other), { subject: 'Their budget', receivedAt: at(20) });
  foreignMessageId = theirs.id;
});

describe('GET /api/v1/messages', () => {
  it('lists every folder most recent first, with a cursor stable against insertion', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let first = true;
    do {
      const response: Awaited<ReturnType<typeof list>> = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      seen.push(...subjects(response.body).map(String));
      cursor = response.body.nextCursor;
      if (first) await createMessage(mailbox, { subject: 'Arrived meanwhile', receivedAt: at(50) });
      first = false;
    } while (cursor);
    expect(seen).toEqual(['Budget review', 'Message 6', 'Message 5', 'Message 4', 'Message 3', 'Message 2', 'Message 1', 'Message 0']);
  });

  it('searches subject, preview and sender with q', async () => {
    expect(subjects((await list('?q=budget')).body)).toEqual(['Budget review']);
    expect(subjects((await list('?q=board')).body)).toEqual(['Budget review']);
    expect(subjects((await list('?q=finance')).body)).toEqual(['Budget review']);
    expect(subjects((await list('?q=from%3Azoe')).body)).toEqual(['Budget review']);
    expect(subjects((await list(`?q=${encodeURIComponent('"for the board"')}`)).body)).toEqual(['Budget review']);
    expect(subjects((await list('?q=mess&limit=2')).body)).toEqual(['Message 6', 'Message 5']);
  });

  it('takes mailboxId', async () => {
    const response = await list(`?mailboxId=${mailbox.id}&limit=200`);
    expect(response.body.messages).toHaveLength(9);
  });

  it.each([['limit=201'], ['limit=-1'], ['mailboxId=x'], ['mailboxId=00000000-0000-4000-8000-000000000000']])('answers 400 for %s', async (query) => {
    const response = await list(`?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: 'request.bad_request' } });
  });

  it('never lists another member’s messages', async () => {
    expect(subjects((await list('?q=budget&limit=200')).body)).not.toContain('Their budget');
  });

  it('treats prototype-named query keys as any other', async () => {
    for (const name of prototypeNames) expect((await list(`?${encodeURIComponent(name)}=1`)).status, name).toBe(200);
  });
});

afterAll(async () => {
  await closeSanitizePool();
});

describe('message signals', () => {
  it('a newsletter (List-Id, Precedence: bulk) is listed as bulk list mail, an out-of-office as an auto-reply, a bounce as a delivery report, an invitation as calendar mail', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner, { address: corpusMailbox });
    const names = ['mailchimp-newsletter', 'exchange-online-automatic-reply', 'gmail-bounce', 'google-calendar-invitation'];
    const sink = createMirrorSink({ id: box.id, memberId: owner.id, address: box.address, syncMode: 'processing_only' });
    await sink.commit({
      ingestedVia: 'initial',
      messages: names.map((name, index) => ({
        providerKey: `INBOX\n1\n${index + 1}`,
        folderKey: 'INBOX',
        labels: [],
        uid: BigInt(index + 1),
        uidValidity: 1n,
        modseq: null,
        flags: { seen: false, flagged: false, draft: false, sent: false },
        internalDate: at(100 + index),
        size: 100,
        source: corpusMessage(name),
        sourceComplete: true,
      })),
      flagUpdates: [],
      removedProviderKeys: [],
      cursors: [],
    });
    const response = await call<{ messages: { signals: Record<string, boolean> }[] }>('GET', `/api/v1/messages?mailboxId=${box.id}`, { cookie: owner.cookie });
    expect(response.status).toBe(200);
    const none = { isAutoReply: false, isNoReply: false, isMailingList: false, isFromSelf: false, isBulk: false, isDeliveryReport: false, isCalendar: false };
    // Most recent first: the order the corpus messages were received in, reversed.
    expect(response.body.messages.map((message) => message.signals)).toEqual([
      { ...none, isCalendar: true },
      { ...none, isDeliveryReport: true, isNoReply: true },
      { ...none, isAutoReply: true },
      { ...none, isMailingList: true, isBulk: true },
    ]);
  });
});

describe('GET /api/v1/messages/{id}', () => {
  it('answers bodyHtmlSafe sanitised on every read: no script, remote images blocked unless asked, cid: images pointed at their download path', async () => {
    const html =
      '<html><head><style>p{color:red}</style></head><body><p onclick="steal()">Hello <b>there</b></p><script>alert(1)</script>' +
      '<a href="javascript:alert(1)">x</a><img src="https://tracker.example/pixel.gif"><img src="cid:logo@mail"></body></html>';
    const message = await createMessage(mailbox, { subject: 'Rich', bodyHtml: html, receivedAt: at(70) });
    await db().mailAttachment.create({ data: { messageId: message.id, position: 2, filename: 'logo.png', mime: 'image/png', size: 4, disposition: 'inline', contentId: '<logo@mail>' } });
    const stored = (await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).bodyHtml;

    const blocked = await call('GET', `/api/v1/messages/${message.id}`, { cookie: member.cookie });
    expect(blocked.status).toBe(200);
    const safe: string = blocked.body.bodyHtmlSafe;
    expect(safe).toContain('Hello <b>there</b>');
    expect(safe).not.toMatch(/<script|onclick|javascript:/i);
    expect(safe).not.toMatch(/\ssrc="https:\/\/tracker\.example/);
    expect(safe).toContain(`src="/api/v1/messages/${message.id}/attachments/2"`);
    expect(blocked.body.hasRemoteImages).toBe(true);

    const allowed = await call('GET', `/api/v1/messages/${message.id}?allowRemoteImages=true`, { cookie: member.cookie });
    expect(allowed.body.bodyHtmlSafe).toMatch(/\ssrc="https:\/\/tracker\.example\/pixel\.gif"/);
    expect(allowed.body.bodyHtmlSafe).not.toMatch(/<script|onclick/i);
    // Never stored: the mirror keeps the HTML as received.
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).bodyHtml).toBe(stored);
  });

  it('answers a message without HTML with bodyHtmlSafe null', async () => {
    const message = await createMessage(mailbox, { subject: 'Plain only', bodyHtml: null, receivedAt: at(71) });
    const response = await call('GET', `/api/v1/messages/${message.id}`, { cookie: member.cookie });
    expect(response.body).toMatchObject({ bodyHtmlSafe: null, hasRemoteImages: false, bodyText: 'Body text' });
  });

  it('answers the full message with headers, attachments and their download paths', async () => {
    const message = await createMessage(mailbox, { subject: 'With parts', bodyText: 'Plain body', receivedAt: at(60) });
    await db().mailMessage.update({
      where: { id: message.id },
      data: {
        recipients: { to: [{ name: 'Ann', email: 'ann@example.test' }, { email: 'bob@example.test' }], cc: [{ email: 'cc@example.test' }], replyTo: [] },
        dateHeader: 'Sun, 01 Feb 2026 09:00:00 +0000',
        classification: { category: 'work' },
        labels: ['Important'],
        hasAttachments: true,
      },
    });
    await db().mailAttachment.createMany({
      data: [
        { messageId: message.id, position: 2, filename: 'report.pdf', mime: 'application/pdf', size: 12, disposition: 'attachment' },
        { messageId: message.id, position: 3, filename: 'logo.png', mime: 'image/png', size: 4, disposition: 'inline', contentId: '<logo@x>' },
      ],
    });
    const response = await call('GET', `/api/v1/messages/${message.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: message.id,
      threadId: message.threadId,
      subject: 'With parts',
      folderLabels: ['INBOX', 'Important'],
      classification: { category: 'work' },
      bodyText: 'Plain body',
      bodyHtmlSafe: null,
      hasRemoteImages: false,
      bodyComplete: true,
      hasAttachments: true,
      headersSubset: {
        to: [{ name: 'Ann', email: 'ann@example.test' }, { email: 'bob@example.test' }],
        cc: [{ email: 'cc@example.test' }],
        replyTo: [],
        date: 'Sun, 01 Feb 2026 09:00:00 +0000',
        messageIdHeader: message.messageIdHeader,
      },
    });
    expect(response.body.attachments).toEqual([
      { id: expect.any(String), position: 2, filename: 'report.pdf', mime: 'application/pdf', size: 12, disposition: 'attachment', contentId: null, downloadUrl: `/api/v1/messages/${message.id}/attachments/2` },
      { id: expect.any(String), position: 3, filename: 'logo.png', mime: 'image/png', size: 4, disposition: 'inline', contentId: '<logo@x>', downloadUrl: `/api/v1/messages/${message.id}/attachments/3` },
    ]);
  });

  it('answers what the mirror has, bodyComplete false, when the content cannot be fetched', async () => {
    const message = await createMessage(mailbox, { subject: 'Partial', bodyText: null, receivedAt: at(61) });
    await db().mailMessage.update({ where: { id: message.id }, data: { bodyComplete: false } });
    const response = await call('GET', `/api/v1/messages/${message.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ bodyComplete: false, bodyText: null, bodyHtmlSafe: null });
  });

  it('answers one 404 request.not_found for another member’s message and an unknown one', async () => {
    const foreign = await call('GET', `/api/v1/messages/${foreignMessageId}`, { cookie: member.cookie });
    const unknown = await call('GET', '/api/v1/messages/00000000-0000-4000-8000-000000000000', { cookie: member.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: { code: 'request.not_found', message: 'No such message.', details: {} } });
    expect(unknown.body).toEqual(foreign.body);
  });

  it.each([['allowRemoteImages=1'], ['allowRemoteImages=yes']])('answers 400 for %s', async (query) => {
    const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id } });
    expect((await call('GET', `/api/v1/messages/${message.id}?${query}`, { cookie: member.cookie })).status).toBe(400);
  });

  it('needs messages:read and a uuid', async () => {
    const { secret } = await createApiKeyFor(member, ['mailboxes:read']);
    expect((await call('GET', `/api/v1/messages/${foreignMessageId}`, { key: secret })).body.error.code).toBe('api_key.scope_missing');
    expect((await call('GET', '/api/v1/messages/not-a-uuid', { cookie: member.cookie })).status).toBe(400);
  });
});
