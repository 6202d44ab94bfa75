import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { createOutbound, type OutboundInput } from '../outbound/create';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { prototypeNames } from '../../testing/prototype-names';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string; address: string };
let theirs: { id: string };

async function item(owner: { id: string }, box: { id: string }, input: Partial<OutboundInput> = {}) {
  const { item: row } = await db().$transaction((tx) =>
    createOutbound({ memberId: owner.id, mailboxId: box.id, mode: 'send', origin: 'workflow', review: true, to: ['alice@example.test'], subject: 'Hello', bodyText: 'Hi Alice', ...input }, tx),
  );
  // Rows of one millisecond are ordered by id, not by insertion: keep the expected order unambiguous.
  await sleep(2);
  return row;
}

async function sendJobs(outboundId: string) {
  const rows = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${jobKeys.send(outboundId)}`;
  return rows[0]!.n;
}

const token = () => `tok-${randomUUID()}`;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member);
  theirs = await createMailbox(other);
});

describe('GET /api/v1/review', () => {
  it('lists only my pending items, newest first, with a pending count under the same filter', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const box2 = await createMailbox(owner);
    const a = await item(owner, box, { subject: 'A' });
    const b = await item(owner, box2, { subject: 'B' });
    await item(owner, box, { review: false, subject: 'not in review' });
    await item(other, theirs, { subject: 'theirs' });
    const response = await call('GET', '/api/v1/review', { cookie: owner.cookie });
    expect(response.status).toBe(200);
    expect(response.body.items.map((entry: { id: string }) => entry.id)).toEqual([b.id, a.id]);
    expect(response.body.pendingCount).toBe(2);
    expect(response.body.nextCursor).toBeNull();
    expect(response.body.items[1]).toMatchObject({ id: a.id, mailboxId: box.id, mailboxAddress: box.address, mode: 'send', origin: 'workflow', recipients: ['alice@example.test'], subject: 'A', reviewStatus: 'pending', sendStatus: 'pending' });
    const filtered = await call('GET', `/api/v1/review?mailboxId=${box.id}`, { cookie: owner.cookie });
    expect(filtered.body.items.map((entry: { id: string }) => entry.id)).toEqual([a.id]);
    expect(filtered.body.pendingCount).toBe(1);
  });

  it('pages with a keyset cursor that stays stable when items are inserted', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const made = [];
    for (let index = 0; index < 5; index += 1) made.push(await item(owner, box, { subject: `n${index}` }));
    const first = await call('GET', '/api/v1/review?limit=2', { cookie: owner.cookie });
    expect(first.body.items.map((entry: { subject: string }) => entry.subject)).toEqual(['n4', 'n3']);
    await item(owner, box, { subject: 'newer' });
    const secondPage = await call('GET', `/api/v1/review?limit=2&cursor=${first.body.nextCursor}`, { cookie: owner.cookie });
    expect(secondPage.body.items.map((entry: { subject: string }) => entry.subject)).toEqual(['n2', 'n1']);
    const third = await call('GET', `/api/v1/review?limit=2&cursor=${secondPage.body.nextCursor}`, { cookie: owner.cookie });
    expect(third.body.items.map((entry: { subject: string }) => entry.subject)).toEqual(['n0']);
    expect(third.body.nextCursor).toBeNull();
    expect(third.body.pendingCount).toBe(6);
  });

  it('refuses a limit above 100 and other bad queries with 400 review.bad_request', async () => {
    for (const query of ['limit=101', 'limit=0', 'limit=abc', 'mailboxId=nope', 'status=gone']) {
      const response = await call('GET', `/api/v1/review?${query}`, { cookie: member.cookie });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('review.bad_request');
    }
    expect((await call('GET', '/api/v1/review?limit=100', { cookie: member.cookie })).status).toBe(200);
  });

  it('gives the first page for an unreadable cursor', async () => {
    const response = await call('GET', '/api/v1/review?cursor=not-a-cursor', { cookie: member.cookie });
    expect(response.status).toBe(200);
  });

  it('needs review:read for a key', async () => {
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    expect((await call('GET', '/api/v1/review', { key: secret })).status).toBe(403);
    const { secret: reader } = await createApiKeyFor(member, ['review:read']);
    expect((await call('GET', '/api/v1/review', { key: reader })).status).toBe(200);
  });
});

describe('snooze', () => {
  it('moves an item out of the pending queue, and back when its time passed', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const row = await item(owner, box);
    const until = new Date(Date.now() + 3600_000).toISOString();
    const snoozed = await call('POST', `/api/v1/review/${row.id}/snooze`, { cookie: owner.cookie, body: { until } });
    expect(snoozed.status).toBe(200);
    expect(snoozed.body.message).toMatchObject({ reviewStatus: 'snoozed', snoozeUntil: until });
    let list = await call('GET', '/api/v1/review', { cookie: owner.cookie });
    expect(list.body).toMatchObject({ items: [], pendingCount: 0 });
    list = await call('GET', '/api/v1/review?status=snoozed', { cookie: owner.cookie });
    expect(list.body.items.map((entry: { id: string }) => entry.id)).toEqual([row.id]);
    await db().outboundMessage.update({ where: { id: row.id }, data: { snoozeUntil: new Date(Date.now() - 1000) } });
    list = await call('GET', '/api/v1/review', { cookie: owner.cookie });
    expect(list.body.pendingCount).toBe(1);
    expect(list.body.items[0]).toMatchObject({ id: row.id, reviewStatus: 'pending' });
    expect(list.body.items[0].snoozeUntil).toBeUndefined();
  });

  it('refuses a moment in the past or beyond 30 days', async () => {
    const row = await item(member, mailbox);
    for (const until of [new Date(Date.now() - 60_000), new Date(Date.now() + 31 * 86_400_000)]) {
      const response = await call('POST', `/api/v1/review/${row.id}/snooze`, { cookie: member.cookie, body: { until: until.toISOString() } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('review.bad_request');
    }
  });
});

describe('GET /api/v1/review/{id}', () => {
  it('names the message a draft answers, so the review shows it beside the draft (issue 19 §7), and null for a new message', async () => {
    const original = await createMessage(mailbox, { subject: 'Question about my order', bodyText: 'Where is my parcel?', messageIdHeader: '<q1@peer.example>' });
    const reply = await item(member, mailbox, { mode: 'draft', subject: 'Re: Question about my order', related: { messageId: original.id, relation: 'reply' } });
    const answered = await call('GET', `/api/v1/review/${reply.id}`, { cookie: member.cookie });
    expect(answered.status).toBe(200);
    expect(answered.body.relatedMessage).toEqual({ id: original.id, relation: 'reply' });
    // The id opens the original through the messages route, sanitised like any message.
    const read = await call('GET', `/api/v1/messages/${original.id}`, { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(read.body.subject).toBe('Question about my order');

    const fresh = await item(member, mailbox, { subject: 'A new message' });
    expect((await call('GET', `/api/v1/review/${fresh.id}`, { cookie: member.cookie })).body.relatedMessage).toBeNull();
  });

  it('answers the draft with its sanitised body, Cc, Bcc and attachments', async () => {
    const row = await item(member, mailbox, {
      cc: ['carol@example.test'],
      bcc: ['bob@example.test'],
      bodyHtml: '<p onclick="steal()">Hello <b>there</b></p><script>alert(1)</script><img src="https://tracker.example/x.png">',
      attachments: [{ source: 'blob', blobKey: 'k', filename: 'quote.pdf', mime: 'application/pdf', size: 1234 }],
    });
    const response = await call('GET', `/api/v1/review/${row.id}`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body.message).toMatchObject({ id: row.id, recipients: ['alice@example.test', 'carol@example.test'] });
    expect(response.body.cc).toEqual(['carol@example.test']);
    expect(response.body.bcc).toEqual(['bob@example.test']);
    expect(response.body.bodyText).toBe('Hi Alice');
    expect(response.body.bodyHtml).toContain('<b>there</b>');
    expect(response.body.bodyHtml).not.toContain('<script');
    expect(response.body.bodyHtml).not.toContain('onclick');
    expect(response.body.bodyHtml).not.toContain(' src="https://tracker.example');
    expect(response.body.hasRemoteImages).toBe(true);
    expect(response.body.attachments).toEqual([{ filename: 'quote.pdf', mime: 'application/pdf', size: 1234 }]);
  });

  it('answers 404 review.not_found for another member’s item, the same as an unknown id', async () => {
    const row = await item(other, theirs);
    for (const id of [row.id, randomUUID()]) {
      const response = await call('GET', `/api/v1/review/${id}`, { cookie: member.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('review.not_found');
    }
  });

  it('answers 410 review.content_gone for purged content or a vanished draft', async () => {
    const purged = await item(member, mailbox);
    await db().outboundMessage.update({ where: { id: purged.id }, data: { contentPurgedAt: new Date() } });
    const gone = await item(member, mailbox, { mode: 'draft' });
    await db().outboundMessage.update({ where: { id: gone.id }, data: { reviewStatus: 'gone' } });
    for (const id of [purged.id, gone.id]) {
      const response = await call('GET', `/api/v1/review/${id}`, { cookie: member.cookie });
      expect(response.status).toBe(410);
      expect(response.body.error.code).toBe('review.content_gone');
    }
  });
});

describe('POST /api/v1/review/{id}/send', () => {
  it('records the send with corrections and enqueues it, without delivering; a repeat answers the same', async () => {
    const row = await item(member, mailbox, { bodyHtml: '<p>old</p>' });
    const clientToken = token();
    const body = { clientToken, subject: 'Corrected', bodyText: 'New body', to: ['Dave@Example.test'], cc: ['erin@example.test'] };
    const response = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body });
    expect(response.status).toBe(202);
    expect(response.body.message).toMatchObject({ id: row.id, reviewStatus: 'sent', sendStatus: 'pending', subject: 'Corrected', recipients: ['dave@example.test', 'erin@example.test'] });
    expect(response.body.message.reviewAt).toEqual(expect.any(String));
    const stored = await db().outboundMessage.findUniqueOrThrow({ where: { id: row.id } });
    expect(stored).toMatchObject({ subject: 'Corrected', bodyText: 'New body', bodyHtml: null, sendClientToken: clientToken, sentAt: null });
    expect(await sendJobs(row.id)).toBe(1);
    const again = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body });
    expect(again.status).toBe(202);
    expect(again.body.message).toEqual(response.body.message);
    expect(await sendJobs(row.id)).toBe(1);
  });

  it('answers 409 review.already_resolved for a sent (other token) or rejected item', async () => {
    const sent = await item(member, mailbox);
    await call('POST', `/api/v1/review/${sent.id}/send`, { cookie: member.cookie, body: { clientToken: token() } });
    const rejected = await item(member, mailbox);
    await call('POST', `/api/v1/review/${rejected.id}/reject`, { cookie: member.cookie, body: {} });
    for (const id of [sent.id, rejected.id]) {
      const response = await call('POST', `/api/v1/review/${id}/send`, { cookie: member.cookie, body: { clientToken: token() } });
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('review.already_resolved');
    }
  });

  it('answers 410 for purged content and 404 for another member’s item (untouched)', async () => {
    const purged = await item(member, mailbox);
    await db().outboundMessage.update({ where: { id: purged.id }, data: { contentPurgedAt: new Date() } });
    let response = await call('POST', `/api/v1/review/${purged.id}/send`, { cookie: member.cookie, body: { clientToken: token() } });
    expect(response.status).toBe(410);
    expect(response.body.error.code).toBe('review.content_gone');
    const foreign = await item(other, theirs);
    response = await call('POST', `/api/v1/review/${foreign.id}/send`, { cookie: member.cookie, body: { clientToken: token() } });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('review.not_found');
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: foreign.id } })).reviewStatus).toBe('pending');
    expect(await sendJobs(foreign.id)).toBe(0);
  });

  it('validates the body: token bounds, sizes, addresses, one-line subject, at least one recipient', async () => {
    const row = await item(member, mailbox);
    const bad = [
      {},
      { clientToken: 'short' },
      { clientToken: 'x'.repeat(201) },
      { clientToken: token(), subject: 's'.repeat(501) },
      { clientToken: token(), subject: 'Hi\r\nBcc: victim@example.test' },
      { clientToken: token(), bodyText: 'b'.repeat(200_001) },
      { clientToken: token(), to: ['not an address'] },
      { clientToken: token(), to: Array.from({ length: 101 }, (_, index) => `r${index}@example.test`) },
      { clientToken: token(), to: [], cc: [], bcc: [] },
    ];
    for (const body of bad) {
      const response = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body });
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error.code).toBe('review.bad_request');
    }
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: row.id } })).reviewStatus).toBe('pending');
  });

  it('replays an Idempotency-Key', async () => {
    const row = await item(member, mailbox);
    const headers = { 'idempotency-key': `idem-${randomUUID()}` };
    const body = { clientToken: token() };
    const first = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body, headers });
    const replay = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body, headers });
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('keeps prototype-named strings as plain values', async () => {
    for (const name of prototypeNames) {
      const row = await item(member, mailbox);
      const response = await call('POST', `/api/v1/review/${row.id}/send`, { cookie: member.cookie, body: { clientToken: `${name}-token`, subject: name, bodyText: name, [name]: 'x' } });
      expect(response.status, name).toBe(202);
      expect(response.body.message.subject).toBe(name);
    }
  });
});

describe('POST /api/v1/review/send', () => {
  it('sends what it can and skips the rest with reasons; a repeat with the token answers the same', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const a = await item(owner, box);
    const b = await item(owner, box);
    const rejected = await item(owner, box);
    await call('POST', `/api/v1/review/${rejected.id}/reject`, { cookie: owner.cookie, body: { reason: 'no' } });
    const purged = await item(owner, box);
    await db().outboundMessage.update({ where: { id: purged.id }, data: { contentPurgedAt: new Date() } });
    const foreign = await item(other, theirs);
    const waiting = await item(owner, box);
    const unknownId = randomUUID();
    const clientToken = token();
    const body = { ids: [a.id, foreign.id, b.id, rejected.id, purged.id, unknownId, 'not-a-uuid', a.id], clientToken };
    const response = await call('POST', '/api/v1/review/send', { cookie: owner.cookie, body });
    expect(response.status).toBe(202);
    expect(response.body).toEqual({
      sent: [a.id, b.id],
      skipped: [
        { id: foreign.id, reason: 'not_found' },
        { id: rejected.id, reason: 'already_resolved' },
        { id: purged.id, reason: 'content_gone' },
        { id: unknownId, reason: 'not_found' },
        { id: 'not-a-uuid', reason: 'not_found' },
      ],
      // The waiting item, and the purged one (still pending: it can be rejected, not sent).
      pendingCount: 2,
    });
    expect(await sendJobs(a.id)).toBe(1);
    expect(await sendJobs(foreign.id)).toBe(0);
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: waiting.id } })).reviewStatus).toBe('pending');
    const again = await call('POST', '/api/v1/review/send', { cookie: owner.cookie, body });
    expect(again.body).toEqual(response.body);
    const otherToken = await call('POST', '/api/v1/review/send', { cookie: owner.cookie, body: { ids: [a.id], clientToken: token() } });
    expect(otherToken.body.skipped).toEqual([{ id: a.id, reason: 'already_resolved' }]);
  });

  it('refuses 0 or 51 ids with 400 review.bad_request', async () => {
    for (const ids of [[], Array.from({ length: 51 }, () => randomUUID())]) {
      const response = await call('POST', '/api/v1/review/send', { cookie: member.cookie, body: { ids, clientToken: token() } });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('review.bad_request');
    }
    const fifty = await call('POST', '/api/v1/review/send', { cookie: member.cookie, body: { ids: Array.from({ length: 50 }, () => randomUUID()), clientToken: token() } });
    expect(fifty.status).toBe(202);
    expect(fifty.body.skipped).toHaveLength(50);
  });

  it('needs review:write for a key', async () => {
    const { secret } = await createApiKeyFor(member, ['review:read']);
    const response = await call('POST', '/api/v1/review/send', { key: secret, body: { ids: [randomUUID()], clientToken: token() } });
    expect(response.status).toBe(403);
  });
});

describe('POST /api/v1/review/{id}/reject and the sending journal', () => {
  it('rejects with a reason kept in the journal; a second decision is 409', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const row = await item(owner, box, { subject: 'Quote', to: ['x@example.test'], cc: ['y@example.test'] });
    const response = await call('POST', `/api/v1/review/${row.id}/reject`, { cookie: owner.cookie, body: { reason: 'Wrong price' } });
    expect(response.status).toBe(200);
    expect(response.body.message).toMatchObject({ id: row.id, reviewStatus: 'rejected', reviewReason: 'Wrong price', sendStatus: 'cancelled' });
    expect(await sendJobs(row.id)).toBe(0);
    const again = await call('POST', `/api/v1/review/${row.id}/reject`, { cookie: owner.cookie, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('review.already_resolved');
    const journal = await call('GET', '/api/v1/sending/journal', { cookie: owner.cookie });
    expect(journal.status).toBe(200);
    expect(journal.body.entries).toHaveLength(1);
    expect(journal.body.entries[0]).toMatchObject({ outboundId: row.id, mailboxId: box.id, event: 'rejected', reason: 'Wrong price', subject: 'Quote', recipients: ['x@example.test', 'y@example.test'] });
    expect((await call('GET', '/api/v1/sending/journal', { cookie: member.cookie })).body.entries.some((entry: { outboundId: string }) => entry.outboundId === row.id)).toBe(false);
  });

  it('refuses another member’s item', async () => {
    const row = await item(member, mailbox);
    const response = await call('POST', `/api/v1/review/${row.id}/reject`, { cookie: other.cookie, body: {} });
    expect(response.status).toBe(404);
  });

  it('lists attempts with their results and filters, with a cursor', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const row = await item(owner, box);
    const base = { memberId: owner.id, outboundId: row.id, mailboxId: box.id };
    await db().sendingJournalEntry.create({ data: { ...base, event: 'attempt', attempt: 1, result: 'failed', errorKind: 'transient', errorMessage: '421 try later', createdAt: new Date(Date.now() - 3000), startedAt: new Date(Date.now() - 3000), finishedAt: new Date(Date.now() - 2900) } });
    await db().sendingJournalEntry.create({ data: { ...base, event: 'attempt', attempt: 2, result: 'done', providerMessageId: 'queue-42', createdAt: new Date(Date.now() - 1000) } });
    await db().sendingJournalEntry.create({ data: { ...base, event: 'held', reason: 'mailbox_hourly_cap', createdAt: new Date(Date.now() - 2000) } });
    const first = await call('GET', `/api/v1/sending/journal?limit=2&outboundId=${row.id}`, { cookie: owner.cookie });
    expect(first.body.entries.map((entry: { event: string; attempt?: number }) => `${entry.event}${entry.attempt ?? ''}`)).toEqual(['attempt2', 'held']);
    expect(first.body.entries[0]).toMatchObject({ result: 'done', providerMessageId: 'queue-42' });
    const next = await call('GET', `/api/v1/sending/journal?limit=2&outboundId=${row.id}&cursor=${first.body.nextCursor}`, { cookie: owner.cookie });
    expect(next.body.entries).toHaveLength(1);
    expect(next.body.entries[0]).toMatchObject({ attempt: 1, result: 'failed', errorKind: 'transient', errorMessage: '421 try later' });
    expect(next.body.nextCursor).toBeNull();
    const held = await call('GET', `/api/v1/sending/journal?event=held&mailboxId=${box.id}`, { cookie: owner.cookie });
    expect(held.body.entries).toHaveLength(1);
  });
});

/**
 * Errors 2: `request.bad_request` is the common code for a body or query that does not match its
 * schema, "including a `limit` above a route's maximum". An area's own `review.bad_request` applies only
 * on the routes whose spec entry lists it (the review list, send, send selection); the sending
 * journal, the read of one item and the rejection list no code of their own.
 */
describe('the common request.bad_request on review routes whose spec lists no review.bad_request', () => {
  it('the sending journal answers limit=201 and other bad queries 400 request.bad_request', async () => {
    for (const query of ['limit=201', 'limit=0', 'event=nope', 'outboundId=x']) {
      const response = await call('GET', `/api/v1/sending/journal?${query}`, { cookie: member.cookie });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code, query).toBe('request.bad_request');
    }
    expect((await call('GET', '/api/v1/sending/journal?limit=200', { cookie: member.cookie })).status).toBe(200);
  });

  it('reading one item answers a malformed id 400 request.bad_request', async () => {
    const response = await call('GET', '/api/v1/review/not-a-uuid', { cookie: member.cookie });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('a rejection answers a reason over 1,000 characters 400 request.bad_request', async () => {
    const row = await item(member, mailbox);
    const response = await call('POST', `/api/v1/review/${row.id}/reject`, { cookie: member.cookie, body: { reason: 'r'.repeat(1001) } });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});

describe('POST /api/v1/review/{id}/resolve', () => {
  it('settles an unknown send: sent marks it done, resend queues it again; both journaled', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const done = await item(owner, box);
    const again = await item(owner, box);
    await db().outboundMessage.updateMany({ where: { id: { in: [done.id, again.id] } }, data: { reviewStatus: 'sent', sendStatus: 'unknown', sendRunnerId: 'dead' } });
    let response = await call('POST', `/api/v1/review/${done.id}/resolve`, { cookie: owner.cookie, body: { verdict: 'sent' } });
    expect(response.status).toBe(200);
    expect(response.body.message.sendStatus).toBe('done');
    expect(await sendJobs(done.id)).toBe(0);
    response = await call('POST', `/api/v1/review/${again.id}/resolve`, { cookie: owner.cookie, body: { verdict: 'resend' } });
    expect(response.body.message.sendStatus).toBe('pending');
    expect(await sendJobs(again.id)).toBe(1);
    const journal = await call('GET', '/api/v1/sending/journal?event=resolved', { cookie: owner.cookie });
    expect(journal.body.entries.map((entry: { result: string }) => entry.result).sort()).toEqual(['resend', 'sent']);
    response = await call('POST', `/api/v1/review/${done.id}/resolve`, { cookie: owner.cookie, body: { verdict: 'sent' } });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('review.not_unknown');
    response = await call('POST', `/api/v1/review/${again.id}/resolve`, { cookie: member.cookie, body: { verdict: 'sent' } });
    expect(response.status).toBe(404);
  });

  it('lists the sends whose outcome is unknown with status=unknown, reviewed or not', async () => {
    const owner = await createMember();
    const box = await createMailbox(owner);
    const reviewed = await item(owner, box);
    const direct = await item(owner, box, { review: false });
    await item(owner, box);
    await db().outboundMessage.updateMany({ where: { id: { in: [reviewed.id, direct.id] } }, data: { sendStatus: 'unknown' } });
    const response = await call('GET', '/api/v1/review?status=unknown', { cookie: owner.cookie });
    expect(response.body.items.map((entry: { id: string }) => entry.id)).toEqual([direct.id, reviewed.id]);
    expect(response.body.pendingCount).toBe(2);
  });
});

describe('hostile input', () => {
  it('answers 400, never 500, to huge strings, odd types and unknown ids in paths', async () => {
    const row = await item(member, mailbox);
    const cases: [string, string, unknown][] = [
      ['POST', `/api/v1/review/${row.id}/send`, { clientToken: token(), bodyHtml: 'h'.repeat(400_001) }],
      ['POST', `/api/v1/review/${row.id}/send`, { clientToken: token(), to: 'alice@example.test' }],
      ['POST', `/api/v1/review/${row.id}/send`, { clientToken: 12345678 }],
      ['POST', '/api/v1/review/send', { ids: ['x'.repeat(101)], clientToken: token() }],
      ['POST', `/api/v1/review/${row.id}/snooze`, { until: 'tomorrow' }],
      ['POST', `/api/v1/review/${row.id}/resolve`, { verdict: '__proto__' }],
      ['GET', `/api/v1/review/not-a-uuid`, undefined],
    ];
    for (const [method, path, body] of cases) {
      const response = await call(method, path, { cookie: member.cookie, body });
      expect(response.status, `${method} ${path}`).toBe(400);
    }
    const cursor = await call('GET', `/api/v1/review?cursor=${'A'.repeat(501)}`, { cookie: member.cookie });
    expect(cursor.status).toBe(400);
  });
});
