import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createOutbound } from '../outbound/create';
import { createMember, type TestMember } from '../../testing/factories';
import { createImapMailbox } from '../../testing/imap-mailbox';
import { createMailbox } from '../../testing/mail-factories';
import { openTestImap } from '../../testing/mail-servers/deliver';
import { startDovecot, type DovecotServer, type MailUser } from '../../testing/mail-servers/dovecot';
import { useTestDatabase } from '../../testing/test-database';
import { openAdapter } from '../../mail/adapters';
import { reconcileFolders } from '../../mail/mirror/folders';
import { createMirrorSink } from '../../mail/mirror/writer';
import { parseImapProviderKey } from '../../mail/imap/sync/provider-key';
import { buildDraftMime, enqueueRemoveDraft, placeDraft, removeDraft } from '../../mail/send/drafts';

await useTestDatabase();

let server: DovecotServer;
let member: TestMember;

beforeAll(async () => {
  server = await startDovecot({ users: [] });
  member = await createMember();
});
afterAll(async () => {
  await server?.stop();
});

async function imapBox() {
  const user: MailUser = { user: `d-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
  await server.addUser(user);
  const mailbox = await createImapMailbox(member, server, user);
  return { mailbox, user };
}

async function sync(mailboxId: string) {
  const loaded = await db().mailbox.findUniqueOrThrow({ where: { id: mailboxId }, include: { credential: true } });
  const { adapter } = await openAdapter(loaded);
  const target = { id: loaded.id, memberId: loaded.memberId, address: loaded.address, syncMode: 'full' as const };
  try {
    const folders = await reconcileFolders(target, await adapter.listFolders());
    await adapter.syncDelta({ mailboxId: loaded.id, address: loaded.address, syncMode: 'full', folders, sink: createMirrorSink(target), signal: new AbortController().signal, initialSince: new Date(0), initialMaxPerFolder: 100 });
  } finally {
    await adapter.close();
  }
}

async function draftItem(mailboxId: string, extra: { bcc?: string[] } = {}) {
  return db().$transaction(async (tx) =>
    (
      await createOutbound(
        { memberId: member.id, mailboxId, mode: 'draft', origin: 'workflow', review: true, to: ['Client <client@example.test>'], cc: ['boss@example.test'], subject: 'Your refund', bodyText: 'Hello, your refund is on its way.', bodyHtml: '<p>Hello, your refund is on its way.</p>', ...extra },
        tx,
      )
    ).item,
  );
}

async function draftJobs(outboundId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ task: string }[]>`
    SELECT t.identifier AS task FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.key = ${`mail-draft:${outboundId}`}`;
  return rows.map((row) => row.task);
}

describe('draft MIME', () => {
  it('carries From, To, Cc, Bcc, Subject, Message-ID, threading headers, text and HTML', async () => {
    const raw = await buildDraftMime({
      mailboxAddress: 'me@example.test',
      toAddrs: ['Client <client@example.test>'],
      ccAddrs: ['cc@example.test'],
      bccAddrs: ['hidden@example.test'],
      subject: 'Re: Question',
      bodyText: 'Plain',
      bodyHtml: '<p>Rich</p>',
      messageIdHeader: '<abc@example.test>',
      inReplyTo: '<orig@example.test>',
      references: ['<root@example.test>', '<orig@example.test>'],
    });
    const parsed = await simpleParser(raw);
    expect(parsed.from?.text).toBe('me@example.test');
    expect(parsed.subject).toBe('Re: Question');
    expect(parsed.messageId).toBe('<abc@example.test>');
    expect(parsed.inReplyTo).toBe('<orig@example.test>');
    expect(parsed.references).toEqual(['<root@example.test>', '<orig@example.test>']);
    expect(parsed.text?.trim()).toBe('Plain');
    expect(parsed.html).toContain('<p>Rich</p>');
    expect(raw.toString()).toMatch(/^Bcc: hidden@example\.test/m);
  });
});

describe('drafts in the mailbox (Dovecot)', () => {
  it('a draft item waiting for review is placed in Drafts with \\Draft; deleting it there and syncing makes the item gone', async () => {
    const { mailbox, user } = await imapBox();
    await sync(mailbox.id);
    const item = await draftItem(mailbox.id);
    expect(await draftJobs(item.id)).toEqual(['mail.place-draft']);

    expect(await placeDraft(item.id)).toBe('placed');
    const placed = await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } });
    const key = parseImapProviderKey(placed.draftProviderKey!);
    expect(key).toMatchObject({ folderKey: 'Drafts' });
    // Again: nothing more is appended.
    expect(await placeDraft(item.id)).toBe('already_placed');

    const client = await openTestImap({ server, ...user });
    try {
      const opened = await client.mailboxOpen('Drafts');
      expect(BigInt(opened.uidValidity)).toBe(key!.uidValidity);
      expect(opened.exists).toBe(1);
      const message = await client.fetchOne(String(key!.uid), { flags: true, source: true, envelope: true }, { uid: true });
      expect(message && message.flags?.has('\\Draft')).toBe(true);
      expect(message && message.envelope?.messageId).toBe(item.messageIdHeader);
      expect(message && message.envelope?.to?.[0]?.address).toBe('client@example.test');
    } finally {
      await client.logout();
    }

    // The sync mirrors it; the member deletes it in their own client; the next sync loses it.
    await sync(mailbox.id);
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id, providerKey: placed.draftProviderKey! } })).toBe(1);
    const own = await openTestImap({ server, ...user });
    try {
      await own.mailboxOpen('Drafts');
      await own.messageDelete(String(key!.uid), { uid: true });
    } finally {
      await own.logout();
    }
    await sync(mailbox.id);
    expect(await db().mailMessage.count({ where: { mailboxId: mailbox.id, providerKey: placed.draftProviderKey! } })).toBe(0);
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).reviewStatus).toBe('gone');
  });

  it('a decided item’s draft is removed from Drafts, and its disappearance leaves the decision as it is', async () => {
    const { mailbox, user } = await imapBox();
    const item = await draftItem(mailbox.id, { bcc: ['hidden@example.test'] });
    expect(await placeDraft(item.id)).toBe('placed');
    await sync(mailbox.id);
    // Still pending: the removal does nothing.
    expect(await removeDraft(item.id)).toBe('nothing');

    await db().$transaction(async (tx) => {
      await tx.outboundMessage.update({ where: { id: item.id }, data: { reviewStatus: 'rejected', reviewAt: new Date() } });
      await enqueueRemoveDraft(item.id, tx);
    });
    // The removal job replaced the placement's key.
    expect(await draftJobs(item.id)).toEqual(['mail.remove-draft']);
    expect(await removeDraft(item.id)).toBe('removed');
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).draftProviderKey).toBeNull();

    const client = await openTestImap({ server, ...user });
    try {
      expect((await client.mailboxOpen('Drafts')).exists).toBe(0);
    } finally {
      await client.logout();
    }
    await sync(mailbox.id);
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).reviewStatus).toBe('rejected');
  });

  it('an item decided before its placement ran gets no draft', async () => {
    const { mailbox, user } = await imapBox();
    const item = await draftItem(mailbox.id);
    await db().outboundMessage.update({ where: { id: item.id }, data: { reviewStatus: 'sent' } });
    expect(await placeDraft(item.id)).toBe('not_applicable');
    const client = await openTestImap({ server, ...user });
    try {
      expect((await client.mailboxOpen('Drafts')).exists).toBe(0);
    } finally {
      await client.logout();
    }
  });

  it('OAuth mailboxes keep drafts in the application only; send items and items without review are not placed', async () => {
    const oauth = await createMailbox(member, { provider: 'mail_provider_a' });
    const item = await draftItem(oauth.id);
    expect(await placeDraft(item.id)).toBe('not_applicable');
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: item.id } })).draftProviderKey).toBeNull();

    const { mailbox } = await imapBox();
    const direct = await db().$transaction(async (tx) =>
      (await createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'draft', origin: 'workflow', review: false, to: ['a@example.test'], subject: 'S' }, tx)).item,
    );
    const send = await db().$transaction(async (tx) =>
      (await createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: true, to: ['a@example.test'], subject: 'S' }, tx)).item,
    );
    expect(await draftJobs(direct.id)).toEqual([]);
    expect(await draftJobs(send.id)).toEqual([]);
    expect(await placeDraft(send.id)).toBe('not_applicable');
  });
});
