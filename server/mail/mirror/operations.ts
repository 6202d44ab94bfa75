/**
 * The mirror side of webmail operations (mail_operations) once the runner applied them at the
 * provider: the operation is marked done and the message follows what the server now holds (a moved
 * message takes its new identity from the MOVE's COPYUID answer, a deleted one leaves the mirror), in
 * one transaction with the thread's recomputation.
 *
 * Each of these writes is fenced like the sync's batches (writer.ts `holdMailboxLease`): given the runner's lease
 * (`fence.leaseOwner`), it writes only while the mailbox is still that runner's, and fails `MailboxLeaseLost`
 * otherwise. The operation then stays pending, as after a runner that died between the provider's answer and this
 * write, and the lease's holder applies it again (the adapters find a message already moved or deleted).
 */
import type { Tx } from '../../core/db';
import { db } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { emitToMember } from '../../core/realtime/emit';
import { blobStore } from '../../core/storage/blob-store';
import type { AppliedOperation, MessageLocator } from '../provider';
import { lockThreads, recomputeThreads } from '../threads/attach';
import { holdMailboxLease, type MirrorMailbox } from './writer';

/** The mailbox an operation belongs to and, when a runner applies it, that runner's lease owner. */
export type OperationFence = Pick<MirrorMailbox, 'id' | 'leaseOwner'>;

export interface PendingOperation {
  id: string;
  memberId: string;
  mailboxId: string;
  messageId: string;
  action: string;
  params: Record<string, unknown>;
  attempts: number;
  /** Null when the message row is gone from the mirror. */
  message: (MessageLocator & { threadId: string | null }) | null;
}

/** Pending operations of a mailbox, oldest first, with the message's server identity. */
export async function pendingOperations(mailboxId: string, limit = 500): Promise<PendingOperation[]> {
  const rows = await db().$queryRaw<
    {
      id: string;
      member_id: string;
      mailbox_id: string;
      message_id: string;
      action: string;
      params: Record<string, unknown>;
      attempts: number;
      provider_key: string | null;
      folder_key: string | null;
      uid: bigint | null;
      uid_validity: bigint | null;
      message_id_header: string | null;
      thread_id: string | null;
    }[]
  >`
    SELECT o.id, o.member_id, o.mailbox_id, o.message_id, o.action, o.params, o.attempts,
           m.provider_key, m.folder_key, m.uid, m.uid_validity, m.message_id_header, m.thread_id
      FROM mail_operations o LEFT JOIN mail_messages m ON m.id = o.message_id
     WHERE o.mailbox_id = ${mailboxId}::uuid AND o.status = 'pending'
     ORDER BY o.created_at, o.id
     LIMIT ${limit}`;
  return rows.map((row) => {
    // A row the web side removed at once (a permanent delete) can name the server identity in params.
    const providerKey = row.provider_key ?? (typeof row.params?.providerKey === 'string' ? row.params.providerKey : null);
    return {
      id: row.id,
      memberId: row.member_id,
      mailboxId: row.mailbox_id,
      messageId: row.message_id,
      action: row.action,
      params: row.params ?? {},
      attempts: row.attempts,
      message: providerKey
        ? { providerKey, folderKey: row.folder_key ?? '', uid: row.uid, uidValidity: row.uid_validity, messageIdHeader: row.message_id_header, threadId: row.thread_id }
        : null,
    };
  });
}

async function deleteMessage(tx: Tx, messageId: string): Promise<string | null> {
  const blobs = await tx.mailAttachment.findMany({ where: { messageId, blobKey: { not: null } }, select: { blobKey: true } });
  const removed = await tx.$queryRaw<{ thread_id: string | null }[]>`DELETE FROM mail_messages WHERE id = ${messageId}::uuid RETURNING thread_id`;
  if (removed.length === 0) return null;
  await blobStore().delete(
    blobs.map((row) => row.blobKey!),
    tx,
  );
  return removed[0]!.thread_id;
}

/** Marks an operation done and brings its message in line with the provider's answer. */
export async function completeOperation(fence: OperationFence, operation: PendingOperation, result: AppliedOperation): Promise<void> {
  await inRetriedTransaction(async (tx) => {
    await holdMailboxLease(tx, fence);
    const threads = new Set<string>();
    if (operation.message?.threadId) threads.add(operation.message.threadId);
    await lockThreads(tx, threads);
    let removed = 0;
    if (result.removed) {
      const threadId = await deleteMessage(tx, operation.messageId);
      if (threadId !== null) removed += 1;
    } else if (result.moved) {
      // Another row already holding the new identity (ingested by a delta before this rewrite) is the
      // same message: keep ours (it carries the member's view and classification), drop that one.
      const duplicates = await tx.mailMessage.findMany({
        where: { mailboxId: operation.mailboxId, providerKey: result.moved.providerKey, id: { not: operation.messageId } },
        select: { id: true },
      });
      for (const duplicate of duplicates) {
        const threadId = await deleteMessage(tx, duplicate.id);
        if (threadId) threads.add(threadId);
        removed += 1;
      }
      await tx.mailMessage.updateMany({
        where: { id: operation.messageId },
        data: { providerKey: result.moved.providerKey, uid: result.moved.uid, uidValidity: result.moved.uidValidity, folderKey: result.moved.folderKey },
      });
    }
    await tx.mailOperation.update({ where: { id: operation.id }, data: { status: 'done', doneAt: new Date(), attempts: { increment: 1 }, lastError: null } });
    if (removed > 0) await tx.$executeRaw`UPDATE mailboxes SET message_count = greatest(0, message_count - ${removed}::int) WHERE id = ${operation.mailboxId}::uuid`;
    await recomputeThreads(tx, threads);
    await emitToMember(operation.memberId, 'mail.changed', { mailboxId: operation.mailboxId, threadIds: [...threads], reason: result.removed ? 'expunged' : 'moved' }, tx);
  });
}

/**
 * A failed attempt: counted; after `maxAttempts` the operation is `failed` and the message goes back
 * to the folder the server has it in (its flags follow the next change the server reports).
 */
export async function failOperation(fence: OperationFence, operation: PendingOperation, message: string, maxAttempts: number, serverFolderKey: string | null): Promise<'retry' | 'failed'> {
  const final = operation.attempts + 1 >= maxAttempts;
  await inRetriedTransaction(async (tx) => {
    await holdMailboxLease(tx, fence);
    if (final && operation.message?.threadId) await lockThreads(tx, [operation.message.threadId]);
    await tx.mailOperation.update({ where: { id: operation.id }, data: { attempts: { increment: 1 }, lastError: message.slice(0, 500), ...(final ? { status: 'failed' } : {}) } });
    if (final && operation.message && serverFolderKey !== null) {
      await tx.mailMessage.updateMany({ where: { id: operation.messageId }, data: { folderKey: serverFolderKey } });
      if (operation.message.threadId) await recomputeThreads(tx, [operation.message.threadId]);
      await emitToMember(operation.memberId, 'mail.changed', { mailboxId: operation.mailboxId, threadIds: operation.message.threadId ? [operation.message.threadId] : [], reason: 'moved' }, tx);
    }
  });
  return final ? 'failed' : 'retry';
}

/** An operation whose message is gone from the mirror and names no server identity: nothing to apply. */
export async function dropOperation(fence: OperationFence, operationId: string): Promise<void> {
  await inRetriedTransaction(async (tx) => {
    await holdMailboxLease(tx, fence);
    await tx.mailOperation.update({ where: { id: operationId }, data: { status: 'failed', lastError: 'The message is no longer in the mirror.', attempts: { increment: 1 } } });
  });
}
