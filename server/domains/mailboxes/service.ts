/**
 * Mailboxes: connecting an IMAP/SMTP account, asking the runner to sync, resync or backfill it, and
 * taking it away (disconnect, delete, member deactivation).
 *
 * Terminology: a mailbox is one connected account of one member; its mirror is the folders, threads,
 * messages and attachments the runner copied from it; its own secret is the Credential row it uses
 * (an IMAP password, or an OAuth grant).
 *
 * - Connect probes both servers for real before anything is stored (IMAP first, then SMTP); the
 *   error names which refused. Connecting a known address again (same member, provider `imap`)
 *   replaces its password and settings, reactivates it and answers `created: false`.
 * - Disconnect, delete and a member's deactivation take a mailbox offline through one function
 *   (`takeOffline`): status `disconnected`, lease released, pending sync work dropped, `mail.release`
 *   queued, its own secret removed, linked workflows disarmed. The mirror stays readable after a
 *   disconnect; delete removes it too, attachment blobs included.
 * - Every change and the jobs it needs are written in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { Prisma, type Mailbox } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit, type AuditBy } from '../../core/audit';
import { requireEncryption } from '../../core/crypto/secret-box';
import { db, type Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { appError } from '../../core/errors/app-error';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue, jobPending } from '../../core/jobs/enqueue';
import { imapCredentialType, imapSettingsSchema, sealImapPassword, type ImapSettings } from '../../core/mail/imap/mailbox-settings';
import { releaseMailboxHeldSends } from '../../core/mail/send/release-held';
import { emitToMember } from '../../core/realtime/emit';
import { blobStore } from '../../core/storage/blob-store';
import { notify } from '../notifications';
import { presentBackfill, presentMailbox } from './present';
import { probeMailServers } from './probe-servers';
import * as repo from './repo';
import type { ConnectImapInput } from './schemas';
import { disarmWorkflows, workflowFootprint } from './workflow-links';

export type CredentialOutcome = 'deleted' | 'kept' | 'none';

const dayMs = 24 * 3600 * 1000;
/** Spec, Limits: a resync window starts in the past and within 92 days. */
export const resyncWindowDays = 92;
/** Messages deleted (with their attachment blobs) per transaction when a mailbox is deleted. */
const deleteBatchSize = 1_000;
const settingsLink = '/settings/mailboxes';

// --- reading -----------------------------------------------------------------------------------

export async function listMailboxes(actor: AuthenticatedActor) {
  const mailboxes = await repo.listMemberMailboxes(actor.member.id);
  return { mailboxes: mailboxes.map(presentMailbox) };
}

/** Mailboxes per member for the Member resource's `mailboxCount`: every mailbox the member has, whatever its status. */
export function mailboxCounts(memberIds: string[], tx?: Tx): Promise<Map<string, number>> {
  return repo.countMailboxesByMember(memberIds, tx);
}

export async function removalImpact(actor: AuthenticatedActor, id: string) {
  const mailbox = await repo.findOwnedOrThrow(actor.member.id, id);
  const [messages, footprint] = await Promise.all([repo.countMessages(mailbox.id), workflowFootprint(mailbox.id)]);
  return { mailboxId: mailbox.id, address: mailbox.address, messages, pendingExecutions: footprint.pendingExecutions, workflows: footprint.workflows };
}

// --- connecting --------------------------------------------------------------------------------

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

// --- asking the runner -------------------------------------------------------------------------

function refuseUnlessActive(mailbox: Mailbox): void {
  if (mailbox.status !== 'active') throw appError('mailbox.not_active', { details: { status: mailbox.status } });
}

/** A delta sync. `enqueued: false` when one is already waiting (not a failure). */
export async function requestSync(actor: AuthenticatedActor, id: string) {
  return db().$transaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    refuseUnlessActive(mailbox);
    const key = jobKeys.sync(mailbox.id);
    if (await jobPending(key, tx)) return { enqueued: false };
    await enqueue('mail.sync', { mailboxId: mailbox.id, reason: 'manual' }, { jobKey: key }, tx);
    return { enqueued: true };
  });
}

/** Whether `since` starts a valid resync window at `now`: in the past and within 92 days. */
export function isResyncWindowValid(since: Date, now: Date): boolean {
  const age = now.getTime() - since.getTime();
  return age > 0 && age <= resyncWindowDays * dayMs;
}

/**
 * Re-reads a past window, silently. A resync already waiting is replaced by this one (the latest
 * window asked wins).
 */
export async function requestResync(actor: AuthenticatedActor, input: { id: string; since: string }) {
  const since = new Date(input.since);
  return db().$transaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    if (!isResyncWindowValid(since, new Date())) {
      throw appError('mailbox.resync_window_invalid', { details: { maxDays: resyncWindowDays } });
    }
    refuseUnlessActive(mailbox);
    await enqueue('mail.resync', { mailboxId: mailbox.id, since: since.toISOString() }, { jobKey: jobKeys.resync(mailbox.id) }, tx);
    return { enqueued: true };
  });
}

/**
 * Mirrors older mail down to `since` (null: everything). Asking again for the same window while one
 * is pending or running changes nothing (`enqueued: false`); another window restarts it as pending.
 */
export async function requestBackfill(actor: AuthenticatedActor, input: { id: string; since?: string | null }, ip: string | null) {
  const since = input.since ? new Date(input.since) : null;
  if (since && since.getTime() >= Date.now()) {
    throw appError('request.bad_request', { message: '`since` must be in the past.', details: { reason: 'since_in_future' } });
  }
  return db().$transaction(async (tx) => {
    const current = await repo.lockOwnedOrThrow(actor.member.id, input.id, tx);
    refuseUnlessActive(current);
    const inProgress = current.backfillStatus === 'pending' || current.backfillStatus === 'running';
    if (inProgress && (current.backfillSince?.getTime() ?? null) === (since?.getTime() ?? null)) {
      return { enqueued: false, backfill: presentBackfill(current)! };
    }
    const mailbox = await repo.updateMailbox(current.id, { backfillStatus: 'pending', backfillSince: since, backfillProgressPct: null }, tx);
    await enqueue('mail.backfill', { mailboxId: mailbox.id }, { jobKey: jobKeys.backfill(mailbox.id) }, tx);
    const backfill = presentBackfill(mailbox)!;
    await recordAudit(
      auditByOf(actor),
      { action: 'mailbox.backfill_requested', targetKind: 'mailbox', targetId: mailbox.id, details: { since: since?.toISOString() ?? null }, ip },
      tx,
    );
    await emitToMember(mailbox.memberId, 'mailbox.status', { mailboxId: mailbox.id, status: mailbox.status, backfill }, tx);
    return { enqueued: true, backfill };
  });
}

// --- taking a mailbox away ----------------------------------------------------------------------

interface OfflineResult {
  /** Whether this call moved the mailbox to `disconnected` (false when it already was). */
  changed: boolean;
  credential: CredentialOutcome;
  disarmedWorkflows: number;
  unpublishedWorkflows: number;
}

/**
 * The one way a mailbox goes offline (disconnect, delete, member deactivation), in the caller's
 * transaction, with the mailbox row locked: status `disconnected`, lease released, waiting sync work
 * dropped, `mail.release` queued so every runner lets go of it, its own secret removed, its workflows
 * disarmed. Idempotent: a second call changes nothing and answers `credential: 'none'`.
 */
async function takeOffline(mailbox: Mailbox, tx: Tx): Promise<OfflineResult> {
  const changed = mailbox.status !== 'disconnected';
  if (changed) {
    await repo.updateMailbox(mailbox.id, { status: 'disconnected', disconnectedAt: new Date(), leaseOwner: null, leaseUntil: null }, tx);
    for (const key of [jobKeys.sync(mailbox.id), jobKeys.resync(mailbox.id), jobKeys.backfill(mailbox.id)]) {
      await tx.$executeRaw`SELECT graphile_worker.remove_job(${key}::text)`;
    }
    await enqueue('mail.release', { mailboxId: mailbox.id }, {}, tx);
    await emitToMember(mailbox.memberId, 'mailbox.status', { mailboxId: mailbox.id, status: 'disconnected' }, tx);
  }
  const credential = await removeOwnSecret(mailbox, tx);
  const { disarmed, unpublished } = await disarmWorkflows(mailbox.id, tx);
  return { changed, credential, disarmedWorkflows: disarmed, unpublishedWorkflows: unpublished };
}

/**
 * Removes the secret the mailbox itself uses: an IMAP password always; an OAuth grant when `mail`
 * was its only capability, else the grant loses `mail` and stays for its other capabilities. The
 * mailbox is unlinked either way, so a second call finds nothing (`none`).
 */
async function removeOwnSecret(mailbox: Mailbox, tx: Tx): Promise<CredentialOutcome> {
  if (!mailbox.credentialId) return 'none';
  const credential = await repo.findCredential(mailbox.credentialId, tx);
  await repo.updateMailbox(mailbox.id, { credentialId: null }, tx);
  if (!credential) return 'none';
  const otherCapabilities = credential.capabilities.filter((capability) => capability !== 'mail');
  if (credential.type === imapCredentialType || mailbox.provider === 'imap' || otherCapabilities.length === 0) {
    await repo.deleteCredential(credential.id, tx);
    return 'deleted';
  }
  await repo.updateCredential(credential.id, { capabilities: otherCapabilities }, tx);
  return 'kept';
}

async function announceRemoval(mailbox: Mailbox, mode: 'disconnected' | 'deleted', unpublishedWorkflows: number, tx: Tx): Promise<void> {
  await notify(
    {
      memberId: mailbox.memberId,
      kind: 'mailbox.removed',
      severity: 'info',
      params: { mailboxId: mailbox.id, address: mailbox.address, mode, unpublishedWorkflows },
      link: settingsLink,
    },
    tx,
  );
}

export async function disconnectMailbox(actor: AuthenticatedActor, id: string, ip: string | null) {
  return inRetriedTransaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    const offline = await takeOffline(mailbox, tx);
    if (offline.changed) await announceRemoval(mailbox, 'disconnected', offline.unpublishedWorkflows, tx);
    if (offline.changed || offline.credential !== 'none') {
      await recordAudit(
        auditByOf(actor),
        {
          action: 'mailbox.disconnected',
          targetKind: 'mailbox',
          targetId: mailbox.id,
          details: { address: mailbox.address, provider: mailbox.provider, credential: offline.credential, disarmedWorkflows: offline.disarmedWorkflows },
          ip,
        },
        tx,
      );
    }
    return { mailboxId: mailbox.id, address: mailbox.address, disarmedWorkflows: offline.disarmedWorkflows, credential: offline.credential };
  });
}

/**
 * Deletes a mailbox and its whole mirror. First taken offline (so the runner stops writing), then
 * its messages go in batches, each with the blobs of its attachments, one transaction per batch (a
 * large mirror holds no lock for long; a failure half-way leaves a disconnected mailbox whose delete
 * can be asked again), then the mailbox itself with what remains (folders, threads, operations).
 */
export async function deleteMailbox(actor: AuthenticatedActor, id: string, ip: string | null) {
  const first = await inRetriedTransaction(async (tx) => {
    const mailbox = await repo.lockOwnedOrThrow(actor.member.id, id, tx);
    return { mailbox, offline: await takeOffline(mailbox, tx) };
  });
  const { mailbox } = first;
  let deletedMessages = 0;
  for (;;) {
    const deleted = await inRetriedTransaction((tx) => deleteMessageBatch(mailbox.id, tx), { timeout: 60_000 });
    deletedMessages += deleted;
    if (deleted < deleteBatchSize) break;
  }
  return inRetriedTransaction(
    async (tx) => {
      const current = await repo.lockOwnedOrThrow(actor.member.id, mailbox.id, tx);
      // Taken offline again in case it was reconnected meanwhile; a message the runner wrote late goes too.
      const again = await takeOffline(current, tx);
      for (let deleted = deleteBatchSize; deleted === deleteBatchSize; ) {
        deleted = await deleteMessageBatch(current.id, tx);
        deletedMessages += deleted;
      }
      await repo.deleteOperations(current.id, tx);
      await repo.deleteMailbox(current.id, tx);
      const credential = first.offline.credential !== 'none' ? first.offline.credential : again.credential;
      const unpublished = first.offline.unpublishedWorkflows + again.unpublishedWorkflows;
      await announceRemoval(current, 'deleted', unpublished, tx);
      await recordAudit(
        auditByOf(actor),
        {
          action: 'mailbox.deleted',
          targetKind: 'mailbox',
          targetId: current.id,
          details: { address: current.address, provider: current.provider, deletedMessages, credential },
          ip,
        },
        tx,
      );
      return { mailboxId: current.id, address: current.address, deletedMessages, credential };
    },
    { timeout: 60_000 },
  );
}

/** One batch of a mailbox's messages and their attachment blobs; how many messages went. */
async function deleteMessageBatch(mailboxId: string, tx: Tx): Promise<number> {
  const batch = await repo.messageBatch(mailboxId, deleteBatchSize, tx);
  if (batch.ids.length === 0) return 0;
  await blobStore().delete(batch.blobKeys, tx);
  return repo.deleteMessages(batch.ids, tx);
}

/**
 * A member is deactivated: every mailbox of theirs that is not already disconnected is taken offline
 * in the caller's transaction, as a disconnect would (secrets removed, `mailbox.removed` recorded).
 * Reactivation leaves them disconnected. Returns how many were paused.
 */
export async function pauseMemberMailboxes(memberId: string, by: AuditBy, ip: string | null, tx: Tx): Promise<number> {
  const mailboxes = await repo.lockLiveMailboxes(memberId, tx);
  for (const mailbox of mailboxes) {
    const offline = await takeOffline(mailbox, tx);
    await announceRemoval(mailbox, 'disconnected', offline.unpublishedWorkflows, tx);
    await recordAudit(
      by,
      {
        action: 'mailbox.disconnected',
        targetKind: 'mailbox',
        targetId: mailbox.id,
        details: { address: mailbox.address, provider: mailbox.provider, credential: offline.credential, reason: 'member_deactivated' },
        ip,
      },
      tx,
    );
  }
  return mailboxes.length;
}
