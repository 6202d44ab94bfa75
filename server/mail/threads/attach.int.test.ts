import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { buildRawMessage, type RawMessageFields } from '../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../testing/test-database';
import { commitBatch, type MirrorMailbox } from '../mirror/writer';
import type { IncomingMessage, MirrorBatch } from '../provider';

await useTestDatabase();

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

  it('writes folder cursors with the batch', async () => {
    const mailbox = await setup();
    await commitBatch(mailbox, batch([await incoming({})], { cursors: [{ folderKey: 'INBOX', uidValidity: 7n, syncedUid: 42n, highestModseq: 9n }] }));
    expect(await db().mailFolder.findFirstOrThrow({ where: { mailboxId: mailbox.id, key: 'INBOX' } })).toMatchObject({ uidValidity: 7n, syncedUid: 42n, highestModseq: 9n, oldestUid: null });
  });
});
