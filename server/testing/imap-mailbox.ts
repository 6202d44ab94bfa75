/**
 * An IMAP mailbox row pointing at a test Dovecot user, stored the way the mailboxes routes store one
 * (settings JSON + a sealed `imap` credential), for sync tests that run the real engine.
 */
import { randomUUID } from 'node:crypto';
import { db } from '../core/db';
import { imapCredentialType, sealImapPassword, type ImapSettings } from '../mail/imap/mailbox-settings';
import type { TestMember } from './factories';
import { createMailbox } from './mail-factories';
import type { DovecotServer, MailUser } from './mail-servers/dovecot';

export async function createImapMailbox(
  member: Pick<TestMember, 'id'>,
  server: Pick<DovecotServer, 'host' | 'plainPort' | 'tlsPort'>,
  user: MailUser,
  options: { address?: string; syncMode?: 'full' | 'processing_only'; tls?: boolean } = {},
) {
  const mailbox = await createMailbox(member, { address: options.address ?? (user.user.includes('@') ? user.user : `${user.user}@example.test`), folders: false });
  const settings: ImapSettings = {
    imapHost: server.host,
    imapPort: options.tls ? server.tlsPort : server.plainPort,
    imapSecure: options.tls === true,
    smtpHost: server.host,
    smtpPort: 465,
    smtpSecure: true,
    username: user.user,
    allowInvalidCertificate: true,
  };
  const credentialId = randomUUID();
  await db().credential.create({
    data: { id: credentialId, memberId: member.id, type: imapCredentialType, name: mailbox.address, dataEnc: sealImapPassword(credentialId, user.password) },
  });
  return db().mailbox.update({
    where: { id: mailbox.id },
    data: { settings, credentialId, ...(options.syncMode ? { syncMode: options.syncMode } : {}) },
  });
}
