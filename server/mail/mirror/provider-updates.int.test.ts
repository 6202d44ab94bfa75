import { describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox, providerMessage } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import { createMirrorSink, type MirrorMailbox } from './writer';

await useTestDatabase();

/** What the OAuth provider adapters need of the sink: folder moves that keep the identity, and `known`. */
async function setup() {
  const member = await createMember();
  const row = await createMailbox(member, { provider: 'mail_provider_a' });
  const mailbox: MirrorMailbox = { id: row.id, memberId: member.id, address: row.address, syncMode: 'full' };
  return { member, mailbox, sink: createMirrorSink(mailbox) };
}


const flags = { seen: true, flagged: false, draft: false, sent: false };

describe('mirror writer: provider moves and known keys', () => {
  it('moves a message to the folder a flag update names and recomputes its thread', async () => {
    const { mailbox, sink } = await setup();
    await sink.commit({ ingestedVia: 'initial', messages: [await providerMessage('m1')], flagUpdates: [], removedProviderKeys: [], cursors: [] });
    await sink.commit({ ingestedVia: 'delta', messages: [], flagUpdates: [{ providerKey: 'm1', flags, labels: ['Label_1'], folderKey: 'Archive' }], removedProviderKeys: [], cursors: [] });
    const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey: 'm1' } });
    expect(message).toMatchObject({ folderKey: 'Archive', labels: ['Label_1'], seen: true });
    const thread = await db().mailThread.findUniqueOrThrow({ where: { id: message.threadId! } });
    expect(thread.folderKeys).toContain('Archive');
    // Without folderKey the folder stays.
    await sink.commit({ ingestedVia: 'delta', messages: [], flagUpdates: [{ providerKey: 'm1', flags: { ...flags, flagged: true } }], removedProviderKeys: [], cursors: [] });
    expect(await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey: 'm1' } })).toMatchObject({ folderKey: 'Archive', flagged: true });
  });

  it('leaves the folder of a message with a pending webmail operation alone', async () => {
    const { member, mailbox, sink } = await setup();
    await sink.commit({ ingestedVia: 'initial', messages: [await providerMessage('m2')], flagUpdates: [], removedProviderKeys: [], cursors: [] });
    const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id, providerKey: 'm2' } });
    await db().mailOperation.create({ data: { memberId: member.id, mailboxId: mailbox.id, messageId: message.id, action: 'trash', params: { toFolderKey: 'Trash' } } });
    await sink.commit({ ingestedVia: 'delta', messages: [], flagUpdates: [{ providerKey: 'm2', flags, folderKey: 'Archive' }], removedProviderKeys: [], cursors: [] });
    expect(await db().mailMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ folderKey: 'INBOX', seen: false });
  });

  it('answers which provider keys are mirrored', async () => {
    const { sink } = await setup();
    await sink.commit({ ingestedVia: 'initial', messages: [await providerMessage('k1'), await providerMessage('k2')], flagUpdates: [], removedProviderKeys: [], cursors: [] });
    expect(await sink.known!(['k1', 'k3', 'k2'])).toEqual(new Set(['k1', 'k2']));
    expect(await sink.known!([])).toEqual(new Set());
  });
});
