/**
 * A thread read as a conversation (mail.read_thread's capability, through the real `mail.thread` of
 * server/engine-adapters/create.ts): directions by the mailbox's own address, the latest messages oldest
 * first, copies in several folders counted once, drafts left out, the participants, the last inbound
 * message a person wrote and the last outbound one over the whole thread, and awaitingReply.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCapabilities } from '../../../engine-adapters/create';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { useTestDatabase } from '../../../testing/test-database';
import { threadReadOutput } from '../../../engine/nodes/mail/read-thread.node';
import { conversationBounds, participantsOf } from './conversation';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
const base = Date.parse('2026-11-02T09:00:00Z');
const at = (hours: number) => new Date(base + hours * 3_600_000);
let me = '';
/** A mailbox of the member with its own address (`me`, as the tests read it). */
async function newMailbox() {
  me = `sales-${randomUUID().slice(0, 8)}@shop.test`;
  return createMailbox(member, { address: me });
}
const anne = { name: 'Anne Client', email: 'anne@client.test' };

function threadOf(who: TestMember, simulated = false) {
  const executionId = randomUUID();
  const actor = { kind: 'execution' as const, executionId, member: { id: who.id, email: who.email, name: who.name, role: who.role, createdAt: new Date() } };
  return createCapabilities({ actor, simulated, effectKeyPrefix: `${executionId}:read` }).mail.thread;
}

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
});

/** A thread: Anne asks, we answer, Anne's out-of-office answers automatically. */
async function conversation() {
  const mailbox = await newMailbox();
  const asked = await createMessage(mailbox, {
    subject: 'Quote for 40 chairs',
    fromEmail: anne.email,
    fromName: anne.name,
    receivedAt: at(0),
    recipients: { to: [{ email: me }], cc: [{ name: 'Bob', email: 'bob@client.test' }] },
  });
  const threadId = asked.threadId!;
  const answered = await createMessage(mailbox, {
    threadId,
    folderKey: 'Sent',
    subject: 'Re: Quote for 40 chairs',
    // Outbound by the mailbox's own address (any case), even without the ingest's from-self mark.
    fromEmail: me.toUpperCase(),
    fromName: 'Shop',
    receivedAt: at(2),
    recipients: { to: [anne] },
  });
  const outOfOffice = await createMessage(mailbox, {
    threadId,
    subject: 'Out of office: Re: Quote for 40 chairs',
    fromEmail: anne.email,
    receivedAt: at(3),
    recipients: { to: [{ email: me }] },
    signals: { isAutoReply: true },
  });
  return { mailbox, threadId, asked, answered, outOfOffice };
}

describe('a thread read as a conversation', () => {
  it('answers the messages oldest first with their direction; the out-of-office does not end the wait for a reply', async () => {
    const { mailbox, threadId, asked, answered, outOfOffice } = await conversation();
    const read = await threadOf(member)({ messageId: asked.id, limit: 50 });
    expect(read).toMatchObject({ threadId, mailboxId: mailbox.id, mailboxAddress: me, subject: 'Quote for 40 chairs', messageCount: 3, truncated: false, awaitingReply: true });
    expect(read!.messages.map((message) => [message.id, message.direction, message.automatic, message.folder])).toEqual([
      [asked.id, 'inbound', false, 'inbox'],
      [answered.id, 'outbound', false, 'sent'],
      [outOfOffice.id, 'inbound', true, 'inbox'],
    ]);
    expect(read!.messages[0]).toMatchObject({
      from: { name: anne.name, email: anne.email },
      to: [{ name: null, email: me }],
      cc: [{ name: 'Bob', email: 'bob@client.test' }],
      receivedAt: at(0).toISOString(),
      signals: { isAutoReply: false, isBulk: false },
    });
    expect(read!.lastInbound?.id).toBe(asked.id);
    expect(read!.lastOutbound?.id).toBe(answered.id);
    expect(read!.participants).toEqual([anne, { name: 'Bob', email: 'bob@client.test' }]);
    // The node's declared output (what the builder completes without a run) is the read's exact shape.
    expect(threadReadOutput.safeParse(read).success).toBe(true);
  });

  it('a reply a person wrote ends awaitingReply; any message of the thread reads the same conversation', async () => {
    const { mailbox, threadId, answered } = await conversation();
    const answer = await createMessage(mailbox, { threadId, subject: 'Re: Quote for 40 chairs', fromEmail: anne.email, receivedAt: at(5), recipients: { to: [{ email: me }] } });
    const read = await threadOf(member)({ messageId: answered.id, limit: 50 });
    expect(read).toMatchObject({ threadId, messageCount: 4, awaitingReply: false });
    expect(read!.lastInbound?.id).toBe(answer.id);
  });

  it('counts a message mirrored in two folders once and leaves drafts out', async () => {
    const { mailbox, threadId, asked } = await conversation();
    const header = `<${randomUUID()}@shop.test>`;
    await createMessage(mailbox, { threadId, folderKey: 'Sent', fromEmail: me, receivedAt: at(4), messageIdHeader: header, signals: { isFromSelf: true } });
    await createMessage(mailbox, { threadId, folderKey: 'Archive', fromEmail: me, receivedAt: at(4), messageIdHeader: header, signals: { isFromSelf: true } });
    await createMessage(mailbox, { threadId, folderKey: 'Drafts', fromEmail: me, receivedAt: at(6), draft: true, signals: { isFromSelf: true } });
    const read = await threadOf(member)({ messageId: asked.id, limit: 50 });
    expect(read!.messageCount).toBe(4);
    expect(read!.messages.filter((message) => message.receivedAt === at(4).toISOString())).toHaveLength(1);
    expect(read!.messages.some((message) => message.folder === 'drafts')).toBe(false);
    expect(read!.lastOutbound?.receivedAt).toBe(at(4).toISOString());
  });

  it('reads the latest messages when the thread is longer than asked, the last ones over the whole thread', async () => {
    const mailbox = await newMailbox();
    const first = await createMessage(mailbox, { fromEmail: anne.email, receivedAt: at(0) });
    for (let i = 1; i <= 6; i += 1) await createMessage(mailbox, { threadId: first.threadId!, fromEmail: me, receivedAt: at(i), signals: { isFromSelf: true } });
    const read = await threadOf(member)({ messageId: first.id, limit: 3 });
    expect(read).toMatchObject({ messageCount: 7, truncated: true, awaitingReply: true });
    expect(read!.messages.map((message) => message.receivedAt)).toEqual([at(4), at(5), at(6)].map((date) => date.toISOString()));
    // Anne's first message is not among those read, yet it is the last inbound one.
    expect(read!.lastInbound?.id).toBe(first.id);
    // A limit past the bound reads the bound.
    expect((await threadOf(member)({ messageId: first.id, limit: 500 }))!.messages).toHaveLength(7);
    expect(conversationBounds.messages).toBe(50);
  });

  it('keeps the first 10 recipients of a message (To and Cc each), so a read stays small', async () => {
    const mailbox = await newMailbox();
    const many = Array.from({ length: 30 }, (_, index) => ({ email: `guest${index}@party.test` }));
    const invitation = await createMessage(mailbox, { fromEmail: anne.email, recipients: { to: many, cc: many } });
    const read = await threadOf(member)({ messageId: invitation.id, limit: 50 });
    expect(read!.messages[0].to.map((address) => address.email)).toEqual(many.slice(0, 10).map((address) => address.email));
    expect(read!.messages[0].cc).toHaveLength(conversationBounds.recipients);
  });

  it('a thread where nobody of the mailbox wrote is not awaiting a reply; the same read in a test run', async () => {
    const mailbox = await newMailbox();
    const alone = await createMessage(mailbox, { fromEmail: anne.email });
    for (const simulated of [false, true]) {
      expect(await threadOf(member, simulated)({ messageId: alone.id, limit: 50 })).toMatchObject({ messageCount: 1, awaitingReply: false, lastOutbound: null, lastInbound: { id: alone.id } });
    }
  });

  it('answers null for another member’s message, an unknown id or a malformed one', async () => {
    const { asked } = await conversation();
    expect(await threadOf(other)({ messageId: asked.id, limit: 50 })).toBeNull();
    expect(await threadOf(member)({ messageId: randomUUID(), limit: 50 })).toBeNull();
    expect(await threadOf(member)({ messageId: 'not-an-id', limit: 50 })).toBeNull();
  });
});

describe('participantsOf', () => {
  it('each address once ignoring case, in order of appearance, the mailbox left out, at most 50', () => {
    const message = (from: string, to: string[]) => ({ from: { name: null, email: from }, to: to.map((email) => ({ name: null, email })), cc: [] }) as never;
    expect(participantsOf([message('A@x.test', ['me@x.test', 'b@x.test']), message('me@x.test', ['a@x.test'])], 'ME@x.test').map((p) => p.email)).toEqual(['A@x.test', 'b@x.test']);
    const many = Array.from({ length: 60 }, (_, index) => `p${index}@x.test`);
    expect(participantsOf([message('me@x.test', many)], 'me@x.test')).toHaveLength(50);
  });
});
