import { describe, expect, it } from 'vitest';
import { db, pool } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../testing/test-database';
import { channel } from '../../core/realtime/disconnect';
import { commitBatch, createMirrorSink, refreshMailboxStatistics, type MirrorMailbox } from '../mirror/writer';
import { recomputeThreads, threadLookupColumnsSql, threadLookupParams } from './attach';
import type { IncomingMessage, MirrorBatch } from '../provider';

await useTestDatabase();

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

let uid = 0;
async function incoming(fields: Partial<RawMessageFields> & { folder?: string; seen?: boolean; labels?: string[]; at?: Date }): Promise<IncomingMessage> {
  uid += 1;
  const folder = fields.folder ?? 'INBOX';
  const date = fields.at ?? new Date(Date.UTC(2026, 0, 1, 0, uid));
  return {
    providerKey: `${folder}\n7\n${uid}`,
    folderKey: folder,
    labels: fields.labels ?? [],
    uid: BigInt(uid),
    uidValidity: 7n,
    modseq: null,
    flags: { seen: fields.seen ?? false, flagged: false, draft: false, sent: false },
    internalDate: date,
    size: 100,
    source: await buildRawMessage({ from: 'Alice <alice@example.test>', to: 'me@example.test', subject: 'Hello', text: 'hi', date, ...fields }),
    sourceComplete: true,
  };
}

function batch(messages: IncomingMessage[], extra: Partial<MirrorBatch> = {}): MirrorBatch {
  return { ingestedVia: 'delta', messages, flagUpdates: [], removedProviderKeys: [], cursors: [], ...extra };
}

async function setup(): Promise<MirrorMailbox> {
  const member = await createMember();
  const mailbox = await createMailbox(member, { address: `me-${uid}@example.test` });
  return { id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' };
}

const threadsOf = (mailboxId: string) => db().mailThread.findMany({ where: { mailboxId }, orderBy: { lastMessageAt: 'asc' } });

describe('threads in the mirror', () => {
  it('groups a reply with its original and recomputes every thread column', async () => {
    const mailbox = await setup();
    const original = await incoming({ messageId: '<o1@x>', subject: 'Budget 2026', text: 'First message', seen: true });
    await commitBatch(mailbox, batch([original]));
    const reply = await incoming({
      from: 'Bob <bob@example.test>',
      messageId: '<r1@x>',
      inReplyTo: '<o1@x>',
      subject: 'Re: Budget 2026',
      text: 'The   reply',
      folder: 'Archive',
      labels: ['work'],
      attachments: [{ filename: 'a.txt', content: 'x' }],
    });
    await commitBatch(mailbox, batch([reply]));

    const threads = await threadsOf(mailbox.id);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({
      subject: 'Budget 2026',
      subjectKey: 'budget 2026',
      messageCount: 2,
      unreadCount: 1,
      flagged: false,
      hasAttachments: true,
      participantCount: 2,
      participants: [{ name: 'Alice', email: 'alice@example.test' }, { name: 'Bob', email: 'bob@example.test' }],
      snippet: 'The reply',
      folderKeys: ['Archive', 'INBOX', 'work'],
    });
    expect(threads[0]!.lastMessageAt).toEqual(reply.internalDate);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(2);
    const attachments = await db().mailAttachment.findMany({ where: { message: { mailboxId: mailbox.id } } });
    expect(attachments).toMatchObject([{ position: 0, filename: 'a.txt', size: 1, blobKey: expect.stringMatching(/^att\//) }]);
  });

  it('writes the threads a batch opens with the columns a recompute gives them, and one live event naming them', async () => {
    const mailbox = await setup();
    const at = (minute: number) => new Date(Date.UTC(2026, 1, 1, 9, minute));
    // One thread of five senders (participants cut at three, the count of all), read and unread, a
    // label, two folders, an attachment, sent out of order; another of one message; a third with no sender.
    const messages = [
      await incoming({ messageId: '<p3@x>', inReplyTo: '<p2@x>', subject: 'Re: Offsite', from: 'Carol <carol@example.test>', at: at(3), folder: 'Archive', labels: ['trips'] }),
      await incoming({ messageId: '<p1@x>', subject: 'Offsite', from: 'Dana <DANA@example.test>', at: at(1), seen: true, text: 'Where shall we go' }),
      await incoming({ messageId: '<p2@x>', inReplyTo: '<p1@x>', subject: 'Re: Offsite', from: 'Bob <bob@example.test>', at: at(2), attachments: [{ filename: 'map.pdf', content: 'x' }] }),
      await incoming({ messageId: '<p4@x>', references: ['<p1@x>', '<p3@x>'], subject: 'Re: Offsite', from: 'dana@example.test', at: at(4) }),
      await incoming({ messageId: '<p5@x>', inReplyTo: '<p4@x>', subject: 'Re: Offsite', from: 'Erin <erin@example.test>', at: at(5), text: 'Latest word' }),
      await incoming({ messageId: '<p6@x>', inReplyTo: '<p5@x>', subject: 'Re: Offsite', from: 'Ann <ann@example.test>', at: at(6), seen: true }),
      await incoming({ messageId: '<solo@x>', subject: 'Invoice 7', from: 'Billing <billing@example.test>', at: at(7) }),
      await incoming({ messageId: '<anon@x>', subject: 'No sender', from: '', at: at(8) }),
    ];
    const announced: string[][] = [];
    const listener = await pool().connect();
    try {
      listener.on('notification', (message) => {
        const [event, payload] = (JSON.parse(message.payload ?? '{}') as { data?: { packet?: { data?: [string, { mailboxId?: string; threadIds?: string[] }] } } }).data?.packet?.data ?? [];
        if (event === 'mail.changed' && payload?.mailboxId === mailbox.id) announced.push(payload.threadIds ?? []);
      });
      await listener.query(`LISTEN "${channel}"`);
      await commitBatch(mailbox, batch(messages));
      // Notifications come after their commit; a round trip on the listening connection flushes them.
      await listener.query('SELECT 1');
    } finally {
      // A connection left listening does not go back to the pool.
      listener.release(true);
    }

    const opened = await threadsOf(mailbox.id);
    expect(opened).toHaveLength(3);
    expect(opened[0]).toMatchObject({
      subject: 'Offsite',
      subjectKey: 'offsite',
      messageCount: 6,
      unreadCount: 4,
      hasAttachments: true,
      participantCount: 5,
      participants: [
        { name: 'Dana', email: 'DANA@example.test' },
        { name: 'Bob', email: 'bob@example.test' },
        { name: 'Carol', email: 'carol@example.test' },
      ],
      folderKeys: ['Archive', 'INBOX', 'trips'],
    });
    expect(opened[0]!.lastMessageAt).toEqual(at(6));
    expect(opened[1]).toMatchObject({ subject: 'Invoice 7', messageCount: 1, participantCount: 1, participants: [{ name: 'Billing', email: 'billing@example.test' }] });
    expect(opened[2]).toMatchObject({ subject: 'No sender', messageCount: 1, participantCount: 0, participants: [] });
    expect(announced).toHaveLength(1);
    expect([...announced[0]!].sort()).toEqual(opened.map((thread) => thread.id).sort());
    // Recomputed from the mirror, every column stays as the insert wrote it.
    await recomputeThreads(db(), opened.map((thread) => thread.id));
    const recomputed = await threadsOf(mailbox.id);
    const columns = ({ updatedAt: _updatedAt, ...rest }: (typeof opened)[number]) => rest;
    expect(recomputed.map(columns)).toEqual(opened.map(columns));
  });

  it('merges two threads when a message links both, and never duplicates a message sent twice', async () => {
    const mailbox = await setup();
    await commitBatch(mailbox, batch([await incoming({ messageId: '<a@x>', subject: 'Plan A' }), await incoming({ messageId: '<b@x>', subject: 'Plan B' })]));
    expect(await threadsOf(mailbox.id)).toHaveLength(2);
    const linking = await incoming({ messageId: '<c@x>', references: ['<a@x>', '<b@x>'], subject: 'Re: plans' });
    await commitBatch(mailbox, batch([linking]));
    await commitBatch(mailbox, batch([linking]));

    const threads = await threadsOf(mailbox.id);
    expect(threads).toHaveLength(1);
    expect(threads[0]!.messageCount).toBe(3);
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id } })).toBe(3);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(3);
  });

  it('falls back to the subject for a reply without known references, never for a generic subject', async () => {
    const mailbox = await setup();
    await commitBatch(mailbox, batch([await incoming({ subject: 'Quarterly review' }), await incoming({ subject: 'Hello' })]));
    await commitBatch(mailbox, batch([await incoming({ subject: 'RE: Quarterly review', inReplyTo: '<unknown@x>' }), await incoming({ subject: 'Re: Hello' })]));
    const threads = await threadsOf(mailbox.id);
    expect(threads.map((thread) => [thread.subjectKey, thread.messageCount]).sort((a, b) => Number(b[1]) - Number(a[1]))).toEqual([
      ['quarterly review', 2],
      [null, 1],
      [null, 1],
    ]);
  });

  it('mirrors flag changes and removals into the thread, but leaves messages with a pending operation alone', async () => {
    const mailbox = await setup();
    const first = await incoming({ messageId: '<f1@x>' });
    const second = await incoming({ messageId: '<f2@x>', inReplyTo: '<f1@x>' });
    await commitBatch(mailbox, batch([first, second]));
    const [one, two] = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id }, orderBy: { receivedAt: 'asc' } });
    await db().mailOperation.create({ data: { memberId: mailbox.memberId, mailboxId: mailbox.id, messageId: two!.id, action: 'markUnread', status: 'pending' } });

    const read = { seen: true, flagged: true, draft: false, sent: false };
    await commitBatch(mailbox, batch([], { flagUpdates: [{ providerKey: first.providerKey, flags: read }, { providerKey: second.providerKey, flags: read }] }));
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: one!.id } })).seen).toBe(true);
    expect((await db().mailMessage.findUniqueOrThrow({ where: { id: two!.id } })).seen).toBe(false);
    expect((await threadsOf(mailbox.id))[0]).toMatchObject({ unreadCount: 1, flagged: true });

    await commitBatch(mailbox, batch([], { removedProviderKeys: [first.providerKey] }));
    expect((await threadsOf(mailbox.id))[0]).toMatchObject({ messageCount: 1 });
    await commitBatch(mailbox, batch([], { removedProviderKeys: [second.providerKey] }));
    expect(await threadsOf(mailbox.id)).toEqual([]);
    expect((await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).messageCount).toBe(0);
  });

  it('joins a message to mirrored mail by each link: their In-Reply-To, their References, a reference they share', async () => {
    const mailbox = await setup();
    // Mirrored first: children whose parents are not mirrored yet, and a message naming a root never mirrored.
    await commitBatch(mailbox, batch([
      await incoming({ messageId: '<child-irt@x>', inReplyTo: '<parent-irt@x>', subject: 'Shipping dates' }),
      await incoming({ messageId: '<child-refs@x>', references: ['<older@x>', '<parent-refs@x>'], subject: 'Venue options' }),
      await incoming({ messageId: '<sibling-1@x>', references: ['<lost-root@x>'], subject: 'Catering' }),
    ]));
    expect(await threadsOf(mailbox.id)).toHaveLength(3);
    // Then, in a later batch, messages linked to them only through those headers (subjects all differ).
    await commitBatch(mailbox, batch([
      await incoming({ messageId: '<parent-irt@x>', subject: 'Dates for the shipment' }),
      await incoming({ messageId: '<parent-refs@x>', subject: 'Where do we meet' }),
      await incoming({ messageId: '<sibling-2@x>', references: ['<lost-root@x>'], subject: 'Menu' }),
    ]));
    const threads = await threadsOf(mailbox.id);
    expect(threads.map((thread) => thread.messageCount)).toEqual([2, 2, 2]);
  });

  it("looks up the thread links of a batch by its ids, not by reading the mailbox, also for a new mailbox once its sink refreshed the statistics", async () => {
    // 10,000 mirrored messages, each naming its parent and a root it shares with one other in its References.
    const fill = (mailboxId: string) =>
      db().$executeRawUnsafe(
        `WITH thread AS (INSERT INTO mail_threads (id, mailbox_id, last_message_at, updated_at) VALUES (gen_random_uuid(), $1::uuid, now(), now()) RETURNING id)
         INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, message_id_header, in_reply_to, "references", received_at, ingested_via, updated_at)
         SELECT gen_random_uuid(), $1::uuid, thread.id, 'INBOX' || chr(10) || '1' || chr(10) || n, 'INBOX', '<big-' || n || '@x>', '<big-' || (n - 1) || '@x>',
                ARRAY['<root-' || (n / 2) || '@x>', '<big-' || (n - 1) || '@x>'], now() - n * interval '1 minute', 'initial', now()
           FROM generate_series(1, 10000) AS n, thread`,
        mailboxId,
      );
    // A batch of 200 new messages, each with three ids (as a sync's batch).
    const messages = Array.from({ length: 200 }, (_, index) => ({
      id: `new-${index}`,
      messageId: `<new-${index}@x>`,
      inReplyTo: `<big-${index * 45}@x>`,
      references: [`<root-${index}@x>`, `<big-${index * 45}@x>`],
      subject: null,
      subjectKey: null,
      replyPrefix: false,
      receivedAt: new Date(),
    }));
    /** Rows the statement read from mail_messages (returned, filtered out or rechecked away), over all loops. */
    const rowsRead = async (mailboxId: string) => {
      const [plan] = await db().$queryRawUnsafe<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
        `EXPLAIN (ANALYZE, FORMAT JSON) SELECT ${threadLookupColumnsSql}`,
        mailboxId,
        ...threadLookupParams(messages),
      );
      let read = 0;
      const walk = (node: PlanNode) => {
        if (node['Relation Name'] === 'mail_messages') {
          read += ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0)) * (node['Actual Loops'] ?? 1);
        }
        for (const child of node.Plans ?? []) walk(child);
      };
      walk(plan!['QUERY PLAN'][0]!.Plan);
      return read;
    };
    // A mailbox the statistics know, and one mirrored since the last ANALYZE (a new mailbox's first
    // sync) once its sink refreshed the statistics of the mailbox column.
    const known = await setup();
    await fill(known.id);
    await db().$executeRawUnsafe('ANALYZE mail_messages');
    const fresh = await setup();
    await fill(fresh.id);
    await refreshMailboxStatistics();
    for (const mailbox of [known, fresh]) {
      const read = await rowsRead(mailbox.id);
      // The links found (about 1,600 rows across both mailboxes, the References index being shared)
      // and nothing besides: reading the mailbox would be 10,000 rows.
      expect(read).toBeGreaterThan(200);
      expect(read).toBeLessThan(3_000);
    }
  });

  it('refreshes the statistics once a sink wrote its first threshold of messages, then each time it wrote four times as many', async () => {
    const mailbox = await setup();
    let refreshes = 0;
    const statistics = { firstAt: 20, refresh: async () => void (refreshes += 1) };
    const sink = createMirrorSink(mailbox, statistics);
    const seen: number[] = [];
    // 3, 19 (none), 22 (the first), 41 (none: past twice, not four times), 90 (past 80: the second), 330 (past 320: the third, once).
    for (const size of [3, 16, 3, 19, 49, 240]) {
      await sink.commit(batch(await Promise.all(Array.from({ length: size }, () => incoming({ subject: 'Bulk' })))));
      seen.push(refreshes);
    }
    expect(seen).toEqual([0, 0, 1, 1, 2, 3]);
    // A new run's small delta never refreshes.
    await createMirrorSink(mailbox, statistics).commit(batch([await incoming({})]));
    expect(refreshes).toBe(3);
  });

  it('awaits only the first statistics refresh: a later one runs beside the next batches, one at a time', async () => {
    const mailbox = await setup();
    const refreshes: Array<() => void> = [];
    const statistics = { firstAt: 5, refresh: () => new Promise<void>((resolve) => refreshes.push(resolve)) };
    const sink = createMirrorSink(mailbox, statistics);
    const some = async (size: number) => batch(await Promise.all(Array.from({ length: size }, () => incoming({ subject: 'Bulk' }))));
    // The first (5 written): the commit waits for it, so the next batch is planned on the mailbox's figures.
    let firstWritten = false;
    const first = sink.commit(await some(5)).then(() => (firstWritten = true));
    while (refreshes.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(firstWritten).toBe(false);
    refreshes[0]!();
    await first;
    // None at 10 written (not yet four times the first); the second (20 written) never ends here, and the batches
    // after it are written all the same.
    await sink.commit(await some(5));
    expect(refreshes).toHaveLength(1);
    await sink.commit(await some(10));
    expect(refreshes).toHaveLength(2);
    // Past the next threshold (80) while it still runs: no second one beside it.
    await sink.commit(await some(62));
    expect(refreshes).toHaveLength(2);
    expect(sink.totals.inserted).toBe(82);
    refreshes[1]!();
  });

  it('a statistics refresh waits for an ANALYZE or VACUUM already on the table instead of skipping its mailbox', async () => {
    const mailbox = await setup();
    await db().$executeRawUnsafe(
      `INSERT INTO mail_messages (id, mailbox_id, provider_key, folder_key, received_at, ingested_via, updated_at)
       SELECT gen_random_uuid(), $1::uuid, 'INBOX' || chr(10) || '1' || chr(10) || n, 'INBOX', now(), 'initial', now() FROM generate_series(1, 500) AS n`,
      mailbox.id,
    );
    const known = async () =>
      (await db().$queryRawUnsafe<{ known: boolean }[]>(
        `SELECT coalesce(bool_or($1 = ANY(most_common_vals::text::text[])), false) AS known FROM pg_stats WHERE tablename = 'mail_messages' AND attname = 'mailbox_id'`,
        mailbox.id,
      ))[0]!.known;
    expect(await known()).toBe(false);
    // An autovacuum analysing the table meanwhile holds the lock ANALYZE takes.
    const autovacuum = await pool().connect();
    try {
      await autovacuum.query('BEGIN');
      await autovacuum.query('LOCK TABLE mail_messages IN SHARE UPDATE EXCLUSIVE MODE');
      const refresh = refreshMailboxStatistics();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await autovacuum.query('COMMIT');
      await refresh;
    } finally {
      await autovacuum.query('ROLLBACK').catch(() => {});
      autovacuum.release();
    }
    expect(await known()).toBe(true);
  });

  it('writes folder cursors with the batch', async () => {
    const mailbox = await setup();
    await commitBatch(mailbox, batch([await incoming({})], { cursors: [{ folderKey: 'INBOX', uidValidity: 7n, syncedUid: 42n, highestModseq: 9n }] }));
    expect(await db().mailFolder.findFirstOrThrow({ where: { mailboxId: mailbox.id, key: 'INBOX' } })).toMatchObject({ uidValidity: 7n, syncedUid: 42n, highestModseq: 9n, oldestUid: null });
  });
});
