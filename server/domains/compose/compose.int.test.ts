/** The webmail's compose routes: send (new, reply, reply all, forward), undo, reply context. */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string; address: string };
let otherMailbox: { id: string };

const token = () => `tok-${randomUUID()}`;
const send = (body: Record<string, unknown>, options: { as?: TestMember; headers?: Record<string, string> } = {}) =>
  call('POST', '/api/v1/messages/send', { cookie: (options.as ?? member).cookie, headers: options.headers, body: { mailboxId: mailbox.id, clientToken: token(), ...body } });
const undo = (id: string, as: TestMember = member) => call('POST', `/api/v1/messages/send/${id}/undo`, { cookie: as.cookie, body: {} });
const sendJob = async (id: string) =>
  (await db().$queryRaw<{ run_at: Date }[]>`SELECT run_at FROM graphile_worker.jobs WHERE key = ${jobKeys.send(id)}`)[0] ?? null;

function withUndoSeconds(seconds: string | undefined) {
  if (seconds === undefined) delete process.env.SEND_UNDO_SECONDS;
  else process.env.SEND_UNDO_SECONDS = seconds;
  resetConfigForTests();
}

async function original(options: { to?: { name?: string; email: string }[]; cc?: { email: string }[]; replyTo?: { email: string }[]; attachments?: number; references?: string[] } = {}) {
  const message = await createMessage(mailbox, { subject: 'Quarterly figures', fromEmail: 'alice@example.test', fromName: 'Alice', bodyText: 'Line one\nLine two' });
  await db().mailMessage.update({
    where: { id: message.id },
    data: {
      recipients: { to: options.to ?? [{ email: mailbox.address }], cc: options.cc ?? [], replyTo: options.replyTo ?? [] },
      references: options.references ?? [],
      inReplyTo: options.references?.at(-1) ?? null,
    },
  });
  for (let position = 0; position < (options.attachments ?? 0); position += 1) {
    await db().mailAttachment.create({ data: { messageId: message.id, position: position + 1, filename: `file-${position}.pdf`, mime: 'application/pdf', size: 100, disposition: 'attachment' } });
  }
  return message;
}

async function upload(owner: TestMember, expiresAt = new Date(Date.now() + 3_600_000)) {
  return db().uploadedAttachment.create({ data: { memberId: owner.id, filename: 'notes.txt', mime: 'text/plain', size: 5, blobKey: `upload/${randomUUID()}`, expiresAt } });
}

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member, { address: 'me@example.test' });
  otherMailbox = await createMailbox(other);
});

afterEach(() => withUndoSeconds(undefined));

describe('POST /api/v1/messages/send', () => {
  it('records a new message that leaves after the undo window: 202, the Review item, the send job at notBefore', async () => {
    withUndoSeconds('30');
    const before = Date.now();
    const response = await send({ to: ['bob@example.test'], cc: ['carol@example.test'], bcc: ['dan@example.test'], subject: 'Hi', bodyText: 'Hello Bob' });
    expect(response.status).toBe(202);
    const { message, undoUntil } = response.body;
    expect(message).toMatchObject({ mailboxId: mailbox.id, mailboxAddress: 'me@example.test', mode: 'send', origin: 'webmail', reviewStatus: 'none', sendStatus: 'pending', subject: 'Hi', recipients: ['bob@example.test', 'carol@example.test'] });
    expect(message.messageIdHeader).toMatch(/^<[^@]+@example\.test>$/);
    const until = new Date(undoUntil).getTime();
    expect(until).toBeGreaterThanOrEqual(before + 30_000);
    const row = await db().outboundMessage.findUniqueOrThrow({ where: { id: message.id } });
    expect(row).toMatchObject({ bccAddrs: ['dan@example.test'], bodyText: 'Hello Bob', inReplyTo: null, references: [] });
    expect(row.notBefore?.getTime()).toBe(until);
    expect((await sendJob(message.id))?.run_at.getTime()).toBe(until);
  });

  it('SEND_UNDO_SECONDS=0: no undo window, the job runs at once', async () => {
    withUndoSeconds('0');
    const response = await send({ to: ['bob@example.test'], subject: 'Now' });
    expect(response.status).toBe(202);
    expect(response.body.undoUntil).toBeNull();
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: response.body.message.id } })).notBefore).toBeNull();
    expect(await sendJob(response.body.message.id)).not.toBeNull();
  });

  it('review: true puts it in the review queue (pending, no job, no undo)', async () => {
    const response = await send({ to: ['bob@example.test'], subject: 'Check me', review: true });
    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ message: { origin: 'webmail', mode: 'send', reviewStatus: 'pending', sendStatus: 'pending' }, undoUntil: null });
    expect(await sendJob(response.body.message.id)).toBeNull();
  });

  it('the same clientToken answers the same message; the Idempotency-Key replays', async () => {
    const clientToken = token();
    const first = await send({ to: ['bob@example.test'], subject: 'Once', clientToken });
    const second = await send({ to: ['bob@example.test'], subject: 'Once', clientToken });
    expect(second.status).toBe(202);
    expect(second.body.message.id).toBe(first.body.message.id);
    expect(await db().outboundMessage.count({ where: { memberId: member.id, subject: 'Once' } })).toBe(1);
    const headers = { 'idempotency-key': `idem-${randomUUID()}` };
    const body = { to: ['bob@example.test'], subject: 'Idem', clientToken: token() };
    const a = await send(body, { headers });
    const b = await send(body, { headers });
    expect([a.status, b.status]).toEqual([202, 202]);
    expect(b.body.message.id).toBe(a.body.message.id);
    const reused = await send({ ...body, clientToken: token() }, { headers });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency.key_reused');
    expect(await db().outboundMessage.count({ where: { memberId: member.id, subject: 'Idem' } })).toBe(1);
  });

  it('concurrent requests with one clientToken make one message', async () => {
    const clientToken = token();
    const answers = await Promise.all([1, 2, 3].map(() => send({ to: ['bob@example.test'], subject: 'Race', clientToken })));
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((answer) => answer.body.message.id)).size).toBe(1);
  });

  it.each([
    ['no recipient', { to: [] }, 'no_recipient'],
    ['an invalid address', { to: ['not an address'] }],
    ['101 recipients', { to: Array.from({ length: 101 }, (_, i) => `r${i}@example.test`) }],
    ['a subject over 500', { to: ['bob@example.test'], subject: 'x'.repeat(501) }],
    ['a text body over 200000', { to: ['bob@example.test'], bodyText: 'x'.repeat(200_001) }],
    ['21 attachments', { to: ['bob@example.test'], attachments: Array.from({ length: 21 }, () => ({ uploadId: randomUUID() })) }],
    ['a short clientToken', { to: ['bob@example.test'], clientToken: 'short' }],
    ['a clientToken with spaces', { to: ['bob@example.test'], clientToken: 'has spaces here' }],
    ['an unknown field', { to: ['bob@example.test'], sendAt: 'later' }],
    ['a malformed mailbox id', { to: ['bob@example.test'], mailboxId: 'nope' }],
  ])('%s is 400 webmail.bad_request', async (_name, body, reason?: string) => {
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('webmail.bad_request');
    if (reason) expect(response.body.error.details.reason).toBe(reason);
  });

  it.each(prototypeNames.map((name) => [name]))('a `%s` key is refused, nothing is written', async (name) => {
    const before = await db().outboundMessage.count();
    const response = await call('POST', '/api/v1/messages/send', {
      cookie: member.cookie,
      rawBody: `{"mailboxId":"${mailbox.id}","to":["bob@example.test"],"clientToken":"${token()}","${name}":{"review":true}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(await db().outboundMessage.count()).toBe(before);
  });

  it('a body above the request bound is 413', async () => {
    const response = await send({ to: ['bob@example.test'], bodyHtml: 'x'.repeat(6 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('request.payload_too_large');
  });

  it('another member’s mailbox is 404 mailbox.not_found; an inactive mailbox 409 mailbox.not_active', async () => {
    const foreign = await send({ mailboxId: otherMailbox.id, to: ['bob@example.test'] });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('mailbox.not_found');
    const inactive = await createMailbox(member, { status: 'disconnected' });
    const refused = await send({ mailboxId: inactive.id, to: ['bob@example.test'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('mailbox.not_active');
  });

  it('needs messages:write', async () => {
    const { secret: key } = await createApiKeyFor(member, ['messages:read']);
    const response = await call('POST', '/api/v1/messages/send', { key, body: { mailboxId: mailbox.id, to: ['bob@example.test'], clientToken: token() } });
    expect(response.status).toBe(403);
    const { secret: writer } = await createApiKeyFor(member, ['messages:write']);
    const ok = await call('POST', '/api/v1/messages/send', { key: writer, body: { mailboxId: mailbox.id, to: ['bob@example.test'], clientToken: token() } });
    expect(ok.status).toBe(202);
  });

  it('a reply threads: In-Reply-To is the original’s Message-ID, References its chain then it; subject Re:', async () => {
    const message = await original({ references: ['<root@example.test>', '<middle@example.test>'] });
    const response = await send({ to: ['alice@example.test'], bodyText: 'Thanks', inReplyTo: { messageId: message.id, mode: 'reply' } });
    expect(response.status).toBe(202);
    expect(response.body.message).toMatchObject({ subject: 'Re: Quarterly figures', threadId: message.threadId });
    const row = await db().outboundMessage.findUniqueOrThrow({ where: { id: response.body.message.id } });
    expect(row.inReplyTo).toBe(message.messageIdHeader);
    expect(row.references).toEqual(['<root@example.test>', '<middle@example.test>', message.messageIdHeader]);
    expect(row).toMatchObject({ relatedMessageId: message.id, relation: 'reply' });
  });

  it('answering another member’s message is 404 webmail.message_not_found; one of another mailbox of yours is 400', async () => {
    const foreign = await createMessage(otherMailbox);
    const response = await send({ to: ['alice@example.test'], inReplyTo: { messageId: foreign.id, mode: 'reply' } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('webmail.message_not_found');
    const second = await createMailbox(member);
    const elsewhere = await createMessage(second);
    const refused = await send({ to: ['alice@example.test'], inReplyTo: { messageId: elsewhere.id, mode: 'reply' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.reason).toBe('other_mailbox');
  });

  it('a forward carries the original’s attachments (unless told otherwise) and no threading headers', async () => {
    const message = await original({ attachments: 2 });
    const response = await send({ to: ['zoe@example.test'], inReplyTo: { messageId: message.id, mode: 'forward' } });
    expect(response.status).toBe(202);
    expect(response.body.message.subject).toBe('Fwd: Quarterly figures');
    const row = await db().outboundMessage.findUniqueOrThrow({ where: { id: response.body.message.id } });
    expect(row.attachments).toEqual([
      { source: 'message', messageId: message.id, position: 1 },
      { source: 'message', messageId: message.id, position: 2 },
    ]);
    expect(row).toMatchObject({ inReplyTo: null, references: [], relation: 'forward' });
    const bare = await send({ to: ['zoe@example.test'], inReplyTo: { messageId: message.id, mode: 'forward', includeAttachments: false } });
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: bare.body.message.id } })).attachments).toEqual([]);
  });

  it('attaches the member’s unused uploads and message attachments; another member’s upload or message is 404; a used upload 400', async () => {
    const mine = await upload(member);
    const message = await original({ attachments: 1 });
    const response = await send({ to: ['bob@example.test'], attachments: [{ uploadId: mine.id }, { messageId: message.id, position: 1 }] });
    expect(response.status).toBe(202);
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: response.body.message.id } })).attachments).toEqual([
      { source: 'upload', uploadId: mine.id },
      { source: 'message', messageId: message.id, position: 1 },
    ]);
    const again = await send({ to: ['bob@example.test'], attachments: [{ uploadId: mine.id }] });
    expect(again.status).toBe(400);
    expect(again.body.error.details.reason).toBe('upload_used');
    // An undone send frees its uploads for the next attempt.
    withUndoSeconds('60');
    const freed = await upload(member);
    const undone = await send({ to: ['bob@example.test'], attachments: [{ uploadId: freed.id }] });
    expect((await undo(undone.body.message.id)).status).toBe(200);
    expect((await send({ to: ['bob@example.test'], attachments: [{ uploadId: freed.id }] })).status).toBe(202);

    const theirs = await upload(other);
    const foreignUpload = await send({ to: ['bob@example.test'], attachments: [{ uploadId: theirs.id }] });
    expect(foreignUpload.status).toBe(404);
    expect(foreignUpload.body.error.code).toBe('request.not_found');
    const expired = await upload(member, new Date(Date.now() - 1_000));
    expect((await send({ to: ['bob@example.test'], attachments: [{ uploadId: expired.id }] })).status).toBe(404);

    const foreignMessage = await createMessage(otherMailbox);
    await db().mailAttachment.create({ data: { messageId: foreignMessage.id, position: 1, filename: 'x.pdf', mime: 'application/pdf', size: 1, disposition: 'attachment' } });
    const stolen = await send({ to: ['bob@example.test'], attachments: [{ messageId: foreignMessage.id, position: 1 }] });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe('webmail.message_not_found');
    const missing = await send({ to: ['bob@example.test'], attachments: [{ messageId: message.id, position: 9 }] });
    expect(missing.status).toBe(404);
  });
});

describe('POST /api/v1/messages/send/{id}/undo', () => {
  it('within the window: cancelled, a journal entry, the job removed; again answers the same', async () => {
    withUndoSeconds('60');
    const sent = await send({ to: ['bob@example.test'], subject: 'Oops' });
    const response = await undo(sent.body.message.id);
    expect(response.status).toBe(200);
    expect(response.body.message).toMatchObject({ id: sent.body.message.id, sendStatus: 'cancelled' });
    expect(await sendJob(sent.body.message.id)).toBeNull();
    expect(await db().sendingJournalEntry.findMany({ where: { outboundId: sent.body.message.id } })).toMatchObject([{ event: 'cancelled', memberId: member.id }]);
    const again = await undo(sent.body.message.id);
    expect(again.status).toBe(200);
    expect(again.body.message.sendStatus).toBe('cancelled');
    expect(await db().sendingJournalEntry.count({ where: { outboundId: sent.body.message.id } })).toBe(1);
  });

  it('too late (window over, send started, no window, review) is 409 webmail.undo_expired', async () => {
    withUndoSeconds('60');
    const late = await send({ to: ['bob@example.test'] });
    await db().outboundMessage.update({ where: { id: late.body.message.id }, data: { notBefore: new Date(Date.now() - 1_000) } });
    const started = await send({ to: ['bob@example.test'] });
    await db().outboundMessage.update({ where: { id: started.body.message.id }, data: { sendStatus: 'running' } });
    const reviewed = await send({ to: ['bob@example.test'], review: true });
    withUndoSeconds('0');
    const immediate = await send({ to: ['bob@example.test'] });
    for (const id of [late.body.message.id, started.body.message.id, reviewed.body.message.id, immediate.body.message.id]) {
      const response = await undo(id);
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('webmail.undo_expired');
    }
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: started.body.message.id } })).sendStatus).toBe('running');
  });

  it('another member’s message, an unknown or malformed id is 404 webmail.message_not_found', async () => {
    withUndoSeconds('60');
    const sent = await send({ to: ['bob@example.test'] });
    for (const [id, as] of [[sent.body.message.id, other], [randomUUID(), member], ['not-a-uuid', member]] as const) {
      const response = await undo(id, as);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('webmail.message_not_found');
    }
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: sent.body.message.id } })).sendStatus).toBe('pending');
  });
});

describe('GET /api/v1/messages/{id}/reply-context', () => {
  const context = (id: string, mode: string, as: TestMember = member) => call('GET', `/api/v1/messages/${id}/reply-context?mode=${mode}`, { cookie: as.cookie });

  it('reply: to the sender (or Reply-To), Re: subject, quoted text', async () => {
    const message = await original({ replyTo: [{ email: 'team@example.test' }] });
    const response = await context(message.id, 'reply');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ mailboxId: mailbox.id, to: ['team@example.test'], cc: [], subject: 'Re: Quarterly figures', attachments: [] });
    expect(response.body.quotedText).toContain('> Line one\n> Line two');
  });

  it('reply all: the original’s To and Cc too, without the mailbox’s own address, each once', async () => {
    const message = await original({
      to: [{ email: 'ME@example.test' }, { email: 'bob@example.test' }, { email: 'alice@example.test' }],
      cc: [{ email: 'carol@example.test' }, { email: 'Bob@example.test' }, { email: 'me@example.test' }],
    });
    const response = await context(message.id, 'replyAll');
    expect(response.body).toMatchObject({ to: ['alice@example.test'], cc: ['bob@example.test', 'carol@example.test'] });
    // The same recipients go out when the client sends them.
    const sent = await send({ to: response.body.to, cc: response.body.cc, inReplyTo: { messageId: message.id, mode: 'replyAll' } });
    expect(sent.body.message.recipients).toEqual(['alice@example.test', 'bob@example.test', 'carol@example.test']);
  });

  it('forward: no recipient, Fwd: subject, the attachments', async () => {
    const message = await original({ attachments: 1 });
    const response = await context(message.id, 'forward');
    expect(response.body).toMatchObject({ to: [], cc: [], subject: 'Fwd: Quarterly figures', attachments: [{ messageId: message.id, position: 1, filename: 'file-0.pdf' }] });
    expect(response.body.quotedText).toContain('Forwarded message');
  });

  it('another member’s message is 404 webmail.message_not_found', async () => {
    const message = await original();
    const response = await context(message.id, 'reply', other);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('webmail.message_not_found');
  });
});
