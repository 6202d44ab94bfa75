/**
 * Connecting a mailbox. Connect probes both servers for real before anything is stored (IMAP first, then
 * SMTP); the error names which refused. Connecting a known address again (same member, provider `imap`)
 * replaces its password and settings, reactivates it and answers `created: false`. The OAuth callback's
 * `mail` grant connects through `connectOAuthMailbox`, in the callback's transaction.
 */
import { randomUUID } from 'node:crypto';
import { Prisma, type Mailbox } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { requireEncryption } from '../../core/crypto/secret-box';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { imapCredentialType, imapSettingsSchema, sealImapPassword, type ImapSettings } from '../../mail/imap/mailbox-settings';
import { releaseMailboxHeldSends } from '../../mail/send/release-held';
import { emitToMember } from '../../core/realtime/emit';
import { probeMailServers } from './probe-servers';
import * as repo from './repo';
import type { ConnectImapInput } from './schemas';

export async function connectImap(actor: AuthenticatedActor, input: ConnectImapInput, ip: string | null) {
  requireEncryption('credentials.encryption_disabled');
  const settings: ImapSettings = imapSettingsSchema.parse({
    imapHost: input.imapHost,
    imapPort: input.imapPort,
    imapSecure: input.imapSecure,
    smtpHost: input.smtpHost,
    smtpPort: input.smtpPort,
    smtpSecure: input.smtpSecure,
    username: input.username ?? input.address,
    allowInvalidCertificate: input.allowInvalidCertificate,
  });
  // Nothing is stored unless both servers accept the login; a refusal throws imap.* / smtp.*.
  await probeMailServers(settings, input.password);

  const memberId = actor.member.id;
  return inRetriedTransaction(async (tx) => {
    await repo.lockAddress(memberId, 'imap', input.address, tx);
    const existing = await repo.findByAddress(memberId, 'imap', input.address, tx);
    const credentialId = await storePassword(memberId, input.address, input.password, existing, tx);
    const { mailbox, created } = await attachMailbox({ memberId, provider: 'imap', address: input.address, credentialId, settings }, existing, tx);
    const { imapHost, imapPort, smtpHost, smtpPort } = settings;
    await recordAudit(
      auditByOf(actor),
      { action: 'mailbox.connected', targetKind: 'mailbox', targetId: mailbox.id, details: { address: mailbox.address, provider: 'imap', created, imapHost, imapPort, smtpHost, smtpPort }, ip },
      tx,
    );
    return { mailboxId: mailbox.id, address: mailbox.address, created };
  });
}

export interface ConnectedAccount {
  memberId: string;
  provider: 'imap' | 'mail_provider_a' | 'mail_provider_b';
  address: string;
  credentialId: string;
  /** IMAP/SMTP settings; OAuth mailboxes have none. */
  settings?: ImapSettings;
}

/**
 * Creates the mailbox of a connected account, or reactivates the known one (same member, provider and
 * address: new settings and secret, active, error forgotten), and queues its sync: the one way a
 * mailbox comes online, for IMAP connect and the OAuth callback alike. `existing` is the row found
 * under the caller's address lock (see `repo.lockAddress`).
 */
async function attachMailbox(account: ConnectedAccount, existing: Mailbox | null, tx: Tx): Promise<{ mailbox: Mailbox; created: boolean }> {
  const settings = (account.settings ?? {}) as object;
  const mailbox = existing
    ? await reactivate(existing, settings, account.credentialId, tx)
    : await repo.insertMailbox({ memberId: account.memberId, provider: account.provider, address: account.address, settings, credentialId: account.credentialId }, tx);
  await enqueue('mail.sync', { mailboxId: mailbox.id, reason: 'connect' }, { jobKey: jobKeys.sync(mailbox.id) }, tx);
  await emitToMember(account.memberId, 'mailbox.status', { mailboxId: mailbox.id, status: mailbox.status }, tx);
  return { mailbox, created: !existing };
}

/** The OAuth callback's `mail` grant: its mailbox created or reconnected in the callback's transaction. */
export async function connectOAuthMailbox(
  account: Omit<ConnectedAccount, 'settings'> & { provider: 'mail_provider_a' | 'mail_provider_b' },
  tx: Tx,
): Promise<{ mailboxId: string; created: boolean }> {
  await repo.lockAddress(account.memberId, account.provider, account.address, tx);
  const existing = await repo.findByAddress(account.memberId, account.provider, account.address, tx);
  const { mailbox, created } = await attachMailbox(account, existing, tx);
  return { mailboxId: mailbox.id, created };
}

/**
 * The mailbox's `imap` credential with the new password: its existing row rewritten in place (same
 * id, so the same sealing purpose), or a new row. The password is sealed under `credential:<id>`.
 */
async function storePassword(memberId: string, address: string, password: string, existing: Mailbox | null, tx: Tx): Promise<string> {
  const current = existing?.credentialId ? await repo.findCredential(existing.credentialId, tx) : null;
  if (current && current.type === imapCredentialType && current.memberId === memberId) {
    await repo.updateCredential(current.id, { dataEnc: sealImapPassword(current.id, password), name: address, hint: null }, tx);
    return current.id;
  }
  const id = randomUUID();
  // No hint: even the last characters of a password say too much.
  await repo.insertCredential({ id, memberId, scope: 'member', type: imapCredentialType, name: address, dataEnc: sealImapPassword(id, password), hint: null }, tx);
  return id;
}

/** A known address connected again: new settings and password, active, error forgotten; an interrupted backfill resumes. */
async function reactivate(existing: Mailbox, settings: object, credentialId: string, tx: Tx): Promise<Mailbox> {
  const wasDisconnected = existing.status === 'disconnected';
  const mailbox = await repo.updateMailbox(
    existing.id,
    {
      settings,
      credentialId,
      status: 'active',
      lastError: Prisma.DbNull,
      failureCount: 0,
      disconnectedAt: null,
      ...(wasDisconnected ? { connectedAt: new Date() } : {}),
    },
    tx,
  );
  if (existing.status !== 'active' && (existing.backfillStatus === 'pending' || existing.backfillStatus === 'running')) {
    await enqueue('mail.backfill', { mailboxId: mailbox.id }, { jobKey: jobKeys.backfill(mailbox.id) }, tx);
  }
  // Sends held while the mailbox was away go out now.
  await releaseMailboxHeldSends(mailbox.id, tx);
  return mailbox;
}
