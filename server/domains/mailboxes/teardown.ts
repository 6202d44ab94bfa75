/**
 * Taking a mailbox away. Disconnect, delete and a member's deactivation take a mailbox offline through one
 * function (`takeOffline`): status `disconnected`, lease released, pending sync work dropped, `mail.release`
 * queued, its own secret removed, linked workflows disarmed. The mirror stays readable after a
 * disconnect; delete removes it too, attachment blobs included.
 */
import type { Mailbox } from '../../generated/prisma/client';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit, type AuditBy } from '../../core/audit';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { imapCredentialType } from '../../mail/imap/mailbox-settings';
import { emitToMember } from '../../core/realtime/emit';
import { blobStore } from '../../core/storage/blob-store';
import { notify } from '../notifications';
import * as repo from './repo';
import { disarmWorkflows } from './workflow-links';

export type CredentialOutcome = 'deleted' | 'kept' | 'none';
/** Messages deleted (with their attachment blobs) per transaction when a mailbox is deleted. */
const deleteBatchSize = 1_000;
const settingsLink = '/settings/mailboxes';

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
      await repo.removeQueuedJob(key, tx);
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
