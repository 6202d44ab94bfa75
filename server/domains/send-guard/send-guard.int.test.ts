import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db, pool } from '../../core/db';
import { batchInPrisma, batchOnConnection } from '../../core/db/statement-batch';
import type { OutboundMessage } from '../../generated/prisma/client';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { evaluateSendGuard } from './evaluate';
import { guardLimits } from './limits';
import { readGuard, type GuardReading } from './reading';
import { bareAddress } from './rules';

// Small caps so each rule is reached with a handful of rows.
process.env.SEND_CAP_MAILBOX_PER_HOUR = '10';
process.env.SEND_CAP_WORKFLOW_PER_HOUR = '8';
process.env.SEND_GUARD_LOOP_WINDOW_MINUTES = '10';
process.env.SEND_GUARD_LOOP_MAX_SENDS = '2';
process.env.SEND_GUARD_REPEAT_MAX_SENDS = '3';
await useTestDatabase();

type Mailbox = Awaited<ReturnType<typeof createMailbox>>;
type Workflow = Awaited<ReturnType<typeof createWorkflow>>['workflow'];

interface ItemOptions {
  origin?: 'workflow' | 'webmail' | 'approval';
  reviewStatus?: string;
  sendStatus?: string;
  workflow?: Workflow | null;
  to?: string[];
  relatedMessageId?: string | null;
  relation?: string | null;
  sentAt?: Date | null;
}

async function item(member: TestMember, mailbox: Mailbox, options: ItemOptions = {}): Promise<OutboundMessage> {
  const sendStatus = options.sendStatus ?? 'pending';
  const sentAt = sendStatus === 'done' ? (options.sentAt === undefined ? new Date() : options.sentAt) : null;
  return db().outboundMessage.create({
    data: {
      memberId: member.id,
      mailboxId: mailbox.id,
      mailboxAddress: mailbox.address,
      mode: 'send',
      origin: options.origin ?? 'workflow',
      reviewStatus: options.reviewStatus ?? 'none',
      sendStatus,
      sentAt,
      sendStartedAt: sentAt,
      toAddrs: options.to ?? [`someone-${randomUUID().slice(0, 6)}@example.test`],
      subject: 'Hello',
      bodyText: 'Hi',
      messageIdHeader: `<${randomUUID()}@example.test>`,
      relatedMessageId: options.relatedMessageId ?? null,
      relation: options.relation ?? null,
      workflowId: options.workflow?.id ?? null,
      workflowName: options.workflow?.name ?? null,
    },
  });
}

async function sent(count: number, member: TestMember, mailbox: Mailbox, options: ItemOptions = {}) {
  for (let index = 0; index < count; index += 1) await item(member, mailbox, { ...options, sendStatus: 'done' });
}

/** What the send pipeline's full claim does: ask the guard, then hold the item or start it, in one transaction. */
async function claimInTransaction(id: string, beforeCommit?: () => Promise<void>): Promise<string | null> {
  return db().$transaction(async (tx) => {
    const row = await tx.outboundMessage.findUniqueOrThrow({ where: { id } });
    const verdict = await evaluateSendGuard(row, tx);
    await beforeCommit?.();
    if (verdict.holdId) {
      await tx.outboundMessage.update({ where: { id }, data: { sendStatus: 'held', holdId: verdict.holdId } });
      await tx.sendingJournalEntry.create({ data: { memberId: row.memberId, outboundId: id, mailboxId: row.mailboxId, event: 'held', reason: 'guard' } });
    } else {
      await tx.outboundMessage.update({ where: { id }, data: { sendStatus: 'running', sendStartedAt: new Date() } });
    }
    return verdict.holdId;
  });
}

/** The guard's reading as the pipeline's quick claim gets it: the same statements in one round trip on a connection. */
async function readingOnConnection(id: string): Promise<GuardReading> {
  const row = await db().outboundMessage.findUniqueOrThrow({ where: { id } });
  const client = await pool().connect();
  try {
    return await readGuard(row, guardLimits(), batchOnConnection(client));
  } finally {
    client.release();
  }
}

/**
 * `claimInTransaction`, one claim at a time, checked against the quick claim's reading of the same moment: where
 * the guard lets the item go, so does that reading; where it holds it, that reading does not let it go.
 */
async function claim(id: string): Promise<string | null> {
  const quick = await readingOnConnection(id);
  const holdId = await claimInTransaction(id);
  expect(quick.joinableHoldId !== null || quick.trip !== null).toBe(holdId !== null);
  return holdId;
}

async function sendJobKeys(): Promise<string[]> {
  const rows = await db().$queryRaw<{ key: string | null }[]>`
    SELECT j.key FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'mail.send'`;
  return rows.map((row) => row.key ?? '');
}

async function notificationsOf(member: TestMember) {
  return db().notification.findMany({ where: { memberId: member.id, kind: 'send.held' }, orderBy: { createdAt: 'asc' } });
}

let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

describe('mailbox hourly cap', () => {
  it('trips at the cap counting every origin; later items of the mailbox join the open hold', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { name: 'Mass mailer' });
    await sent(6, owner, mailbox, { origin: 'webmail' });
    await sent(3, owner, mailbox, { workflow });
    // A send of an hour and more ago and a failed one do not count.
    await sent(1, owner, mailbox, { origin: 'webmail', sentAt: new Date(Date.now() - 61 * 60_000) });
    await item(owner, mailbox, { sendStatus: 'failed' });

    // The 10th send goes (9 counted), the 11th meets the cap.
    expect(await claim((await item(owner, mailbox, { origin: 'webmail' })).id)).toBeNull();
    const tripping = await item(owner, mailbox, { workflow });
    const holdId = await claim(tripping.id);
    expect(holdId).not.toBeNull();
    const hold = await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } });
    expect(hold).toMatchObject({ memberId: owner.id, mailboxId: mailbox.id, workflowId: null, reason: 'mailbox_hourly_cap', releasedAt: null });
    expect(hold.details).toMatchObject({ sends: 10, limit: 10, windowMinutes: 60, pausedWorkflow: true, pausedWorkflowId: workflow.id });
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).paused).toBe(true);

    // The member's webmail send meets it too, and no second hold opens.
    const webmail = await item(owner, mailbox, { origin: 'webmail' });
    expect(await claim(webmail.id)).toBe(holdId);
    expect(await db().sendHold.count({ where: { memberId: owner.id } })).toBe(1);

    // Another mailbox of the member is not concerned.
    const second = await createMailbox(owner);
    expect(await claim((await item(owner, second, { origin: 'webmail' })).id)).toBeNull();

    const notes = await notificationsOf(owner);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ severity: 'warning', link: '/review' });
    expect(notes[0].params).toEqual({ holdId, reason: 'mailbox_hourly_cap', mailboxAddress: mailbox.address, workflowName: 'Mass mailer', heldCount: 1 });

    const list = await call('GET', '/api/v1/sending/holds', { cookie: owner.cookie });
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: holdId, reason: 'mailbox_hourly_cap', mailboxId: mailbox.id, mailboxAddress: mailbox.address, workflowId: null, workflowName: null, heldCount: 2, releasedAt: null }),
    ]);
  });
});

describe('workflow hourly cap', () => {
  it('trips at the workflow’s own lower cap, pauses it; its other items join; human sends of the mailbox still go', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { name: 'Replies' });
    await db().workflow.update({ where: { id: workflow.id }, data: { settings: { sendCapPerHour: 2 } } });
    await sent(2, owner, mailbox, { workflow });

    const holdId = await claim((await item(owner, mailbox, { workflow })).id);
    const hold = await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } });
    expect(hold).toMatchObject({ workflowId: workflow.id, mailboxId: mailbox.id, reason: 'workflow_hourly_cap' });
    expect(hold.details).toMatchObject({ sends: 2, limit: 2, pausedWorkflow: true });
    const paused = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(paused.paused).toBe(true);
    expect(paused.publishedVersionId).not.toBeNull();

    // Another automated item of the workflow, through another mailbox, joins it.
    const otherBox = await createMailbox(owner);
    expect(await claim((await item(owner, otherBox, { workflow })).id)).toBe(holdId);
    // A reviewed item of the workflow and a webmail send are subject to the mailbox cap only.
    expect(await claim((await item(owner, mailbox, { workflow, reviewStatus: 'sent' })).id)).toBeNull();
    expect(await claim((await item(owner, mailbox, { origin: 'webmail' })).id)).toBeNull();
    expect((await notificationsOf(owner)).map((note) => note.params)).toEqual([
      { holdId, reason: 'workflow_hourly_cap', mailboxAddress: mailbox.address, workflowName: 'Replies', heldCount: 1 },
    ]);
  });

  it('a workflow setting above the instance cap is the instance cap', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner);
    await db().workflow.update({ where: { id: workflow.id }, data: { settings: { sendCapPerHour: 1000 } } });
    await sent(7, owner, mailbox, { workflow });
    expect(await claim((await item(owner, mailbox, { workflow })).id)).toBeNull();
    const holdId = await claim((await item(owner, mailbox, { workflow })).id);
    expect((await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } })).details).toMatchObject({ sends: 8, limit: 8 });
  });
});

describe('auto-reply ping-pong', () => {
  it('a workflow reply to an auto-reply after two automated sends to its sender within the window is held', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { name: 'Auto answer' });
    const autoReply = await createMessage(mailbox, { fromEmail: 'Bot@Vacation.test', subject: 'Out of office' });
    await db().mailMessage.update({ where: { id: autoReply.id }, data: { isAutoReply: true } });
    const human = await createMessage(mailbox, { fromEmail: 'bot@vacation.test', subject: 'Re: hello' });

    await sent(1, owner, mailbox, { workflow, to: ['Bot <bot@vacation.test>'] });
    // Older than the window, a webmail send and a reviewed send are not automated sends of the window.
    await sent(1, owner, mailbox, { workflow, to: ['bot@vacation.test'], sentAt: new Date(Date.now() - 11 * 60_000) });
    await sent(1, owner, mailbox, { origin: 'webmail', to: ['bot@vacation.test'] });
    await sent(1, owner, mailbox, { workflow, reviewStatus: 'sent', to: ['bot@vacation.test'] });
    expect(await claim((await item(owner, mailbox, { workflow, to: ['bot@vacation.test'], relatedMessageId: autoReply.id, relation: 'reply' })).id)).toBeNull();

    // Two automated sends now (one of them running): the next reply to the auto-reply is held.
    const reply = await item(owner, mailbox, { workflow, to: ['bot@vacation.test'], relatedMessageId: autoReply.id, relation: 'reply' });
    const holdId = await claim(reply.id);
    const hold = await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } });
    expect(hold).toMatchObject({ reason: 'auto_reply_loop', workflowId: workflow.id });
    expect(hold.details).toMatchObject({ counterpart: 'bot@vacation.test', sends: 2, limit: 2, windowMinutes: 10 });
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).paused).toBe(true);
    void human;
  });

  it('a reply to a message without the signal, and the member’s own reply to the auto-reply, are not held by it', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner);
    const autoReply = await createMessage(mailbox, { fromEmail: 'robot@loop.test' });
    await db().mailMessage.update({ where: { id: autoReply.id }, data: { isAutoReply: true } });
    const plain = await createMessage(mailbox, { fromEmail: 'robot@loop.test' });
    await sent(2, owner, mailbox, { workflow, to: ['robot@loop.test'] });

    expect(await claim((await item(owner, mailbox, { workflow, to: ['robot@loop.test'], relatedMessageId: plain.id, relation: 'reply' })).id)).toBeNull();
    expect(await claim((await item(owner, mailbox, { origin: 'webmail', to: ['robot@loop.test'], relatedMessageId: autoReply.id, relation: 'reply' })).id)).toBeNull();
    expect(await db().sendHold.count({ where: { memberId: owner.id } })).toBe(0);
  });
});

describe('auto-reply ping-pong with a delivery report', () => {
  it('a workflow reply to a bounce after two automated sends to its sender within the window is held', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { name: 'Answers bounces' });
    const bounce = await createMessage(mailbox, { fromEmail: 'MAILER-DAEMON@mx.loop.test', subject: 'Undelivered Mail Returned to Sender' });
    await db().mailMessage.update({ where: { id: bounce.id }, data: { isDeliveryReport: true, isNoReply: true } });
    await sent(2, owner, mailbox, { workflow, to: ['mailer-daemon@mx.loop.test'] });
    const holdId = await claim((await item(owner, mailbox, { workflow, to: ['mailer-daemon@mx.loop.test'], relatedMessageId: bounce.id, relation: 'reply' })).id);
    expect(await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } })).toMatchObject({ reason: 'auto_reply_loop', workflowId: workflow.id });
  });
});

describe('repeated recipient', () => {
  it('the 4th automated send of a workflow to one recipient within an hour is held; other recipients went', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner);
    const second = await createMailbox(owner);
    // Three sends to Alice (through two mailboxes, names and case as written), one to Bob.
    await sent(2, owner, mailbox, { workflow, to: ['Alice <ALICE@x.test>'] });
    await sent(1, owner, second, { workflow, to: ['carol@x.test'], origin: 'approval' });
    expect(await claim((await item(owner, second, { workflow, to: ['bob@x.test', 'alice@x.test'] })).id)).toBeNull();

    const holdId = await claim((await item(owner, mailbox, { workflow, to: ['dave@x.test'], origin: 'workflow' })).id);
    expect(holdId).toBeNull();
    const again = await item(owner, mailbox, { workflow, to: ['ed@x.test', 'alice@x.test'] });
    const held = await claim(again.id);
    const hold = await db().sendHold.findUniqueOrThrow({ where: { id: held! } });
    expect(hold).toMatchObject({ reason: 'repeat_recipient', workflowId: workflow.id });
    expect(hold.details).toMatchObject({ recipient: 'alice@x.test', sends: 3, limit: 3 });
  });

  it('recipients written as hostile text are counted alike in one round trip and in Prisma (quotes, backslashes, $1, accents)', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner);
    const hostile = [`o'brien\\x@x.test`, 'Dollar <$1@x.test>', "'); DROP TABLE send_holds; --@x.test", 'Zoë <ZOË@exämple.test>'];
    await sent(3, owner, mailbox, { workflow, to: hostile });
    // Read before any hold opens (each would join it): every one trips on its own recipient, both ways alike.
    for (const recipient of hostile) {
      const next = await item(owner, mailbox, { workflow, to: [recipient] });
      const quick = await readingOnConnection(next.id);
      expect(quick.trip).toMatchObject({ reason: 'repeat_recipient', details: { recipient: bareAddress(recipient), sends: 3 } });
      expect(await db().$transaction((tx) => readGuard(next, guardLimits(), batchInPrisma(tx)))).toEqual(quick);
    }
    // The text was a value, never SQL: the table it names is still there.
    await expect(db().sendHold.count()).resolves.toBeTypeOf('number');
  });

  it('the member’s webmail sends to one recipient are never held by it', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    await sent(4, owner, mailbox, { origin: 'webmail', to: ['friend@x.test'] });
    expect(await claim((await item(owner, mailbox, { origin: 'webmail', to: ['friend@x.test'] })).id)).toBeNull();
  });
});

describe('release POST /api/v1/sending/holds/{id}/release', () => {
  it('puts the held items back to pending with their send jobs, un-pauses the workflow, and does not trip again on them', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { name: 'Digest' });
    await db().workflow.update({ where: { id: workflow.id }, data: { settings: { sendCapPerHour: 4 } } });
    await sent(4, owner, mailbox, { workflow });
    const first = await item(owner, mailbox, { workflow });
    const second = await item(owner, mailbox, { workflow });
    const holdId = await claim(first.id);
    expect(await claim(second.id)).toBe(holdId);
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).paused).toBe(true);

    const key = await createApiKeyFor(owner, ['review:read']);
    const refused = await call('POST', `/api/v1/sending/holds/${holdId}/release`, { key: key.secret });
    expect(refused.status).toBe(403);

    const released = await call('POST', `/api/v1/sending/holds/${holdId}/release`, { cookie: owner.cookie });
    expect(released.status).toBe(200);
    expect(released.body.hold).toMatchObject({ id: holdId, reason: 'workflow_hourly_cap', workflowId: workflow.id, workflowName: 'Digest', heldCount: 2 });
    expect(released.body.hold.releasedAt).not.toBeNull();
    expect(released.body.hold.details).toMatchObject({ releasedCount: 2, unpausedWorkflow: true, pausedWorkflow: true });

    const rows = await db().outboundMessage.findMany({ where: { id: { in: [first.id, second.id] } } });
    expect(rows.map((row) => [row.sendStatus, row.holdId])).toEqual([
      ['pending', null],
      ['pending', null],
    ]);
    expect(await sendJobKeys()).toEqual(expect.arrayContaining([`mail-send:${first.id}`, `mail-send:${second.id}`]));
    const journal = await db().sendingJournalEntry.findMany({ where: { outboundId: { in: [first.id, second.id] }, event: 'released' } });
    expect(journal.map((entry) => entry.reason)).toEqual(['workflow_hourly_cap', 'workflow_hourly_cap']);
    const after = await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } });
    expect(after.paused).toBe(false);
    expect(after.publishedVersionId).not.toBeNull();
    expect(await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } })).toMatchObject({ releasedBy: owner.id });

    // The released items go when claimed again; so does a new item (the cap counts from the release).
    expect(await claim(first.id)).toBeNull();
    expect(await claim(second.id)).toBeNull();
    expect(await claim((await item(owner, mailbox, { workflow })).id)).toBeNull();
    expect(await db().sendHold.count({ where: { memberId: owner.id, releasedAt: null } })).toBe(0);

    // Releasing again answers the hold as it is; the open list no longer shows it, `status=all` does.
    const again = await call('POST', `/api/v1/sending/holds/${holdId}/release`, { cookie: owner.cookie });
    expect(again.status).toBe(200);
    expect(again.body.hold.releasedAt).toBe(released.body.hold.releasedAt);
    expect((await call('GET', '/api/v1/sending/holds', { cookie: owner.cookie })).body.items).toEqual([]);
    const all = await call('GET', '/api/v1/sending/holds?status=all', { cookie: owner.cookie });
    expect(all.body.items.map((hold: { id: string }) => hold.id)).toEqual([holdId]);
  });

  it('keeps a workflow paused that the member had paused themselves', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    const { workflow } = await createWorkflow(owner, { paused: true });
    await db().workflow.update({ where: { id: workflow.id }, data: { settings: { sendCapPerHour: 4 } } });
    await sent(4, owner, mailbox, { workflow });
    const holdId = await claim((await item(owner, mailbox, { workflow })).id);
    const released = await call('POST', `/api/v1/sending/holds/${holdId}/release`, { cookie: owner.cookie });
    expect(released.body.hold.details).toMatchObject({ pausedWorkflow: false, unpausedWorkflow: false });
    expect((await db().workflow.findUniqueOrThrow({ where: { id: workflow.id } })).paused).toBe(true);
  });

  it('404 send_hold.not_found for another member’s hold or an unknown id; it stays open', async () => {
    const mailbox = await createMailbox(member);
    await sent(10, member, mailbox, { origin: 'webmail' });
    const holdId = await claim((await item(member, mailbox, { origin: 'webmail' })).id);
    for (const id of [holdId, '00000000-0000-4000-8000-000000000000']) {
      const response = await call('POST', `/api/v1/sending/holds/${id}/release`, { cookie: other.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('send_hold.not_found');
    }
    expect((await call('GET', '/api/v1/sending/holds', { cookie: other.cookie })).body.items).toEqual([]);
    expect((await db().sendHold.findUniqueOrThrow({ where: { id: holdId! } })).releasedAt).toBeNull();
    const bad = await call('POST', '/api/v1/sending/holds/not-a-uuid/release', { cookie: other.cookie });
    expect(bad.status).toBe(400);
  });
});

describe('GET /api/v1/sending/holds', () => {
  it('pages newest first, answers 400 for a bad query, and needs review:read', async () => {
    const owner = await createMember();
    const ids: string[] = [];
    for (let index = 0; index < 3; index += 1) {
      const mailbox = await createMailbox(owner);
      await sent(10, owner, mailbox, { origin: 'webmail' });
      ids.push((await claim((await item(owner, mailbox, { origin: 'webmail' })).id))!);
    }
    const first = await call('GET', '/api/v1/sending/holds?limit=2', { cookie: owner.cookie });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await call('GET', `/api/v1/sending/holds?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`, { cookie: owner.cookie });
    expect(second.body).toMatchObject({ nextCursor: null });
    expect([...first.body.items, ...second.body.items].map((hold: { id: string }) => hold.id).sort()).toEqual([...ids].sort());
    // An unreadable cursor starts from the top.
    expect((await call('GET', '/api/v1/sending/holds?cursor=garbage', { cookie: owner.cookie })).body.items).toHaveLength(3);

    for (const query of ['status=closed', 'limit=0', 'limit=101', `cursor=${'x'.repeat(501)}`]) {
      const response = await call('GET', `/api/v1/sending/holds?${query}`, { cookie: owner.cookie });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
    const reader = await createApiKeyFor(owner, ['review:read']);
    expect((await call('GET', '/api/v1/sending/holds', { key: reader.secret })).status).toBe(200);
    const stranger = await createApiKeyFor(owner, ['messages:read']);
    expect((await call('GET', '/api/v1/sending/holds', { key: stranger.secret })).status).toBe(403);
  });
});

describe('concurrent claims at the cap boundary', () => {
  it('the mailbox lock makes the second claim count the first: only one passes', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    await sent(9, owner, mailbox, { origin: 'webmail' });
    const a = await item(owner, mailbox, { origin: 'webmail' });
    const b = await item(owner, mailbox, { origin: 'webmail' });

    let secondClaim: Promise<string | null> | null = null;
    // A has judged (and holds the lock) when B starts; A commits only once B is seen waiting for the lock.
    const first = claimInTransaction(a.id, async () => {
      secondClaim = claimInTransaction(b.id);
      for (;;) {
        const [row] = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`;
        if ((row?.n ?? 0) > 0) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    const verdicts = [await first, await secondClaim!];
    expect(verdicts[0]).toBeNull();
    expect(verdicts[1]).not.toBeNull();
  });

  it('many claims at once never exceed the cap', async () => {
    const owner = await createMember();
    const mailbox = await createMailbox(owner);
    await sent(7, owner, mailbox, { origin: 'webmail' });
    const items = await Promise.all(Array.from({ length: 6 }, () => item(owner, mailbox, { origin: 'webmail' })));
    const verdicts = await Promise.all(items.map((row) => claimInTransaction(row.id)));
    expect(verdicts.filter((verdict) => verdict === null)).toHaveLength(3);
    expect(new Set(verdicts.filter((verdict) => verdict !== null)).size).toBe(1);
  });
});
