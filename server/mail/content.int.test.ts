import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { createMember } from '../testing/factories';
import { createImapMailbox } from '../testing/imap-mailbox';
import { appendMessages, buildRawMessage } from '../testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../testing/mail-servers/dovecot';
import { useTestDatabase } from '../testing/test-database';
import { blobStore } from '../core/storage/blob-store';
import { openAdapter } from './adapters';
import { fetchMessageContent } from './content';
import { reconcileFolders } from './mirror/folders';
import { createMirrorSink } from './mirror/writer';

await useTestDatabase();

let server: DovecotServer;
beforeAll(async () => {
  server = await startDovecot({ users: [] });
});
afterAll(async () => {
  await server?.stop();
});

async function syncedMailbox(syncMode: 'full' | 'processing_only') {
  const user = { user: `c-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
  await server.addUser(user);
  const member = await createMember();
  const mailbox = await createImapMailbox(member, server, user, { syncMode });
  const raw = await buildRawMessage({
    from: 'a@example.test',
    to: mailbox.address,
    subject: 'With attachment',
    text: 'The body',
    html: '<p>The body</p>',
    attachments: [{ filename: 'report.csv', content: 'x,y\n1,2\n', contentType: 'text/csv' }],
  });
  await appendMessages({ server, ...user }, [{ raw }]);
  const loaded = await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id }, include: { credential: true } });
  const { adapter } = await openAdapter(loaded);
  const target = { id: loaded.id, memberId: loaded.memberId, address: loaded.address, syncMode };
  const folders = await reconcileFolders(target, await adapter.listFolders());
  await adapter.syncDelta({ mailboxId: loaded.id, address: loaded.address, syncMode, folders, sink: createMirrorSink(target), signal: new AbortController().signal, initialSince: new Date(0), initialMaxPerFolder: 100 });
  await adapter.close();
  return db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id }, include: { attachments: true } });
}

describe('fetchMessageContent', () => {
  it('processing_only: reads body and attachment from the server without storing them', async () => {
    const message = await syncedMailbox('processing_only');
    expect(message).toMatchObject({ bodyText: null, bodyComplete: false });
    const content = await fetchMessageContent(message.id, { attachmentPosition: 0 });
    expect(content).toMatchObject({ bodyText: expect.stringContaining('The body'), bodyHtml: '<p>The body</p>', bodyComplete: true, fetched: true, failure: null });
    expect(content!.attachment).toMatchObject({ mime: 'text/csv', filename: 'report.csv' });
    expect(content!.attachment!.content.toString()).toBe('x,y\n1,2\n');
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ bodyText: null, bodyComplete: false });
  });

  it('full: a purged attachment and an incomplete body are fetched again and stored', async () => {
    const message = await syncedMailbox('full');
    const attachment = message.attachments[0]!;
    await blobStore().delete([attachment.blobKey!]);
    await db().mailMessage.update({ where: { id: message.id }, data: { bodyText: null, bodyHtml: null, bodyComplete: false } });

    const content = await fetchMessageContent(message.id, { attachmentPosition: 0 });
    expect(content!.attachment!.content.toString()).toBe('x,y\n1,2\n');
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ bodyHtml: '<p>The body</p>', bodyComplete: true });
    expect((await blobStore().get(attachment.blobKey!))?.toString()).toBe('x,y\n1,2\n');

    // Without a position: every attachment the mirror lacks is completed too.
    await db().mailAttachment.update({ where: { id: attachment.id }, data: { blobKey: null } });
    await blobStore().delete([attachment.blobKey!]);
    expect(await fetchMessageContent(message.id)).toMatchObject({ fetched: true, attachment: null });
    expect((await db().mailAttachment.findUniqueOrThrow({ where: { id: attachment.id } })).blobKey).toBe(attachment.blobKey);
    expect((await blobStore().get(attachment.blobKey!))?.toString()).toBe('x,y\n1,2\n');

    // Now served by the mirror.
    expect(await fetchMessageContent(message.id, { attachmentPosition: 0 })).toMatchObject({ fetched: false, bodyComplete: true });
    expect(await fetchMessageContent(message.id, { attachmentPosition: 9 })).toMatchObject({ attachment: null, fetched: false });
    expect(await fetchMessageContent(randomUUID())).toBeNull();
  });

  it('answers from the mirror with the failure kind when the server cannot be reached', async () => {
    const message = await syncedMailbox('processing_only');
    const mailbox = await db().mailbox.findUniqueOrThrow({ where: { id: message.mailboxId } });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { settings: { ...(mailbox.settings as object), imapPort: 1 } } });
    expect(await fetchMessageContent(message.id)).toMatchObject({ bodyText: null, bodyComplete: false, fetched: false, failure: 'unreachable' });
  });
});
