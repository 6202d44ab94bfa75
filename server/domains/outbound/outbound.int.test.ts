import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { jobKeys } from '../../core/jobs/catalogue';
import { createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import pg from 'pg';
import { channel } from '../../core/realtime/disconnect';
import { createOutbound, threadingOf } from './create';
import { purgeOutboundContent } from './housekeeping';

const databaseUrl = await useTestDatabase();

let member: TestMember;
let mailbox: { id: string; address: string };

beforeAll(async () => {
  member = await createMember();
  mailbox = await createMailbox(member, { address: 'me@team.example' });
});

afterAll(async () => {
  await db().$disconnect();
});

async function sendJobs(outboundId: string): Promise<{ run_at: Date }[]> {
  return db().$queryRaw`SELECT run_at FROM graphile_worker.jobs WHERE key = ${jobKeys.send(outboundId)}`;
}

describe('createOutbound', () => {
  it('a reply carries the original Message-ID as In-Reply-To, its chain plus it as References, and joins its thread', async () => {
    const original = await createMessage(mailbox, { messageIdHeader: '<orig@peer.example>' });
    await db().mailMessage.update({ where: { id: original.id }, data: { references: ['<root@peer.example>'] } });
    const { item } = await db().$transaction((tx) =>
      createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'draft', origin: 'workflow', review: true, to: ['peer@peer.example'], subject: 'Re: Hello', related: { messageId: original.id, relation: 'reply' } }, tx),
    );
    expect(item.inReplyTo).toBe('<orig@peer.example>');
    expect(item.references).toEqual(['<root@peer.example>', '<orig@peer.example>']);
    expect(item.threadId).toBe(original.threadId);
    expect(item.messageIdHeader).toMatch(/^<[0-9a-f-]{36}@team\.example>$/);
    expect(item.mailboxAddress).toBe('me@team.example');
  });

  it('an item under review has no send job; one without review has its job at the end of the undo window', async () => {
    const reviewed = await db().$transaction((tx) =>
      createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: true, to: ['a@x.example'], subject: 'S' }, tx),
    );
    expect(reviewed.item.reviewStatus).toBe('pending');
    expect(await sendJobs(reviewed.item.id)).toHaveLength(0);

    const notBefore = new Date(Date.now() + 10_000);
    const direct = await db().$transaction((tx) =>
      createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'webmail', review: false, to: ['a@x.example'], subject: 'S', notBefore }, tx),
    );
    expect(direct.item.reviewStatus).toBe('none');
    expect(direct.item.sendStatus).toBe('pending');
    const jobs = await sendJobs(direct.item.id);
    expect(jobs).toHaveLength(1);
    expect(Math.abs(jobs[0]!.run_at.getTime() - notBefore.getTime())).toBeLessThan(1_000);
  });

  it('a repeated dedupe key answers the first item (a retried step makes no second message)', async () => {
    const input = { memberId: member.id, mailboxId: mailbox.id, mode: 'send' as const, origin: 'workflow' as const, review: false, to: ['b@x.example'], subject: 'Once', dedupeKey: 'exec:node:send' };
    const first = await db().$transaction((tx) => createOutbound(input, tx));
    const second = await db().$transaction((tx) => createOutbound(input, tx));
    expect(second.duplicate).toBe(true);
    expect(second.item.id).toBe(first.item.id);
    expect(await sendJobs(first.item.id)).toHaveLength(1);
  });

  it('a forward starts a new thread without threading headers', async () => {
    const original = await createMessage(mailbox, { messageIdHeader: '<fwd@peer.example>' });
    const { item } = await db().$transaction((tx) =>
      createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'webmail', review: true, to: ['c@x.example'], subject: 'Fwd: Hello', related: { messageId: original.id, relation: 'forward' } }, tx),
    );
    expect(item.inReplyTo).toBeNull();
    expect(item.references).toEqual([]);
    expect(item.threadId).toBeNull();
    expect(item.relatedMessageId).toBe(original.id);
  });
});

describe('the live event of a new item', () => {
  it('announces outbound.changed on the creating transaction, so the review queue shows a new draft at once', async () => {
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const seen: unknown[] = [];
    listener.on('notification', (message) => {
      const packet = (JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, unknown] } } }).data?.packet?.data;
      if (packet?.[0] === 'outbound.changed') seen.push(packet[1]);
    });
    await listener.query(`LISTEN "${channel}"`);
    try {
      const { item } = await db().$transaction((tx) =>
        createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'draft', origin: 'workflow', review: true, to: ['e@x.example'], subject: 'Live' }, tx),
      );
      for (let tries = 0; tries < 200 && seen.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(seen).toEqual([{ outboundId: item.id, mailboxId: mailbox.id, reviewStatus: 'pending', sendStatus: 'pending' }]);
    } finally {
      await listener.end();
    }
  });
});

describe('threadingOf', () => {
  it('falls back to In-Reply-To when the original has no References, and keeps at most 50 ids', () => {
    expect(threadingOf({ messageIdHeader: '<b@x>', references: [], inReplyTo: '<a@x>' })).toEqual({ inReplyTo: '<b@x>', references: ['<a@x>', '<b@x>'] });
    const long = Array.from({ length: 80 }, (_, i) => `<${i}@x>`);
    expect(threadingOf({ messageIdHeader: '<z@x>', references: long, inReplyTo: null }).references).toHaveLength(50);
    expect(threadingOf({ messageIdHeader: null, references: long, inReplyTo: null })).toEqual({ inReplyTo: null, references: [] });
  });
});

describe('purgeOutboundContent', () => {
  it('drops the bodies of finished items past retention and keeps pending ones and the rows', async () => {
    const make = (sendStatus: string, reviewStatus: string) =>
      db().outboundMessage.create({
        data: { memberId: member.id, mailboxId: mailbox.id, mailboxAddress: mailbox.address, mode: 'send', origin: 'webmail', reviewStatus, sendStatus, subject: 'Old', bodyText: 'secret body', toAddrs: ['d@x.example'], messageIdHeader: '<old@x>' },
      });
    const done = await make('done', 'none');
    const rejected = await make('pending', 'rejected');
    const pending = await make('pending', 'pending');
    const later = new Date(Date.now() + 31 * 86_400_000);
    expect(await purgeOutboundContent(later, 30)).toBeGreaterThanOrEqual(2);
    const rows = await db().outboundMessage.findMany({ where: { id: { in: [done.id, rejected.id, pending.id] } } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(done.id)).toMatchObject({ bodyText: null, subject: 'Old' });
    expect(byId.get(done.id)!.contentPurgedAt).not.toBeNull();
    expect(byId.get(rejected.id)!.contentPurgedAt).not.toBeNull();
    expect(byId.get(pending.id)).toMatchObject({ bodyText: 'secret body', contentPurgedAt: null });
    expect(await purgeOutboundContent(new Date(), 30)).toBe(0);
  });
});
