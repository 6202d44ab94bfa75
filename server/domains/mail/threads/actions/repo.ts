/** The reads and writes of a thread action (its writes all in the caller's transaction), and what an undo of a run's actions reads. */
import { db, type Tx } from '../../../../core/db';
import type { Prisma } from '../../../../generated/prisma/client';
import { blobStore } from '../../../../core/storage/blob-store';

export interface LockedThread {
  id: string;
  mailbox_id: string;
  provider: string;
  status: string;
}

/** The member's thread, locked until the transaction ends (two requests on one thread take turns). */
export async function lockMemberThread(tx: Tx, memberId: string, threadId: string): Promise<LockedThread | null> {
  const rows = await tx.$queryRaw<LockedThread[]>`
    SELECT t.id, t.mailbox_id, b.provider, b.status FROM mail_threads t JOIN mailboxes b ON b.id = t.mailbox_id
     WHERE t.id = ${threadId}::uuid AND b.member_id = ${memberId}::uuid FOR UPDATE OF t`;
  return rows[0] ?? null;
}

export function operationsOfToken(tx: Tx, memberId: string, clientToken: string) {
  return tx.mailOperation.findMany({
    where: { memberId, clientToken },
    select: { id: true, messageId: true, threadId: true, action: true },
    orderBy: { messageId: 'asc' },
  });
}

/** The thread's messages, oldest first, at most `take`. */
export function threadMessagesForAction(tx: Tx, threadId: string, take: number) {
  return tx.mailMessage.findMany({
    where: { threadId },
    select: { id: true, folderKey: true, sent: true, providerKey: true },
    orderBy: [{ receivedAt: 'asc' }, { id: 'asc' }],
    take,
  });
}

/** Where each message now in trash or spam came from: the folder its latest trash/spam operation left. */
export async function originFolders(tx: Tx, messageIds: string[]): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ message_id: string; origin: string | null }[]>`
    SELECT DISTINCT ON (message_id) message_id, params->>'fromFolderKey' AS origin FROM mail_operations
     WHERE message_id = ANY(${messageIds}::uuid[]) AND action IN ('trash', 'spam')
     ORDER BY message_id, created_at DESC`;
  return new Map(rows.flatMap((row) => (row.origin ? [[row.message_id, row.origin] as [string, string]] : [])));
}

export async function updateLabels(tx: Tx, messageIds: string[], add: string[], remove: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  // First occurrence order kept: existing labels, then the added ones.
  await tx.$executeRaw`
    UPDATE mail_messages m SET updated_at = now(), labels = coalesce((
      SELECT array_agg(s.x ORDER BY s.at) FROM (
        SELECT u.x, min(u.o) AS at FROM unnest(m.labels || ${add}::text[]) WITH ORDINALITY AS u(x, o)
         WHERE u.x <> ALL(${remove}::text[]) GROUP BY u.x) s), ARRAY[]::text[])
     WHERE m.id = ANY(${messageIds}::uuid[])`;
}

/** Removes messages from the mirror with their attachments' content. */
export async function removeMessages(tx: Tx, mailboxId: string, messageIds: string[]): Promise<void> {
  if (messageIds.length === 0) return;
  const attachments = await tx.mailAttachment.findMany({ where: { messageId: { in: messageIds }, blobKey: { not: null } }, select: { blobKey: true } });
  await blobStore().delete(attachments.flatMap((attachment) => (attachment.blobKey ? [attachment.blobKey] : [])), tx);
  const { count } = await tx.mailMessage.deleteMany({ where: { id: { in: messageIds } } });
  await tx.$executeRaw`UPDATE mailboxes SET message_count = greatest(0, message_count - ${count}::int) WHERE id = ${mailboxId}::uuid`;
}

/** One update per distinct change: the messages named get the same fields. */
export function updateMessagesFields(tx: Tx, ids: string[], data: { seen?: boolean; flagged?: boolean; folderKey?: string }) {
  return tx.mailMessage.updateMany({ where: { id: { in: ids } }, data });
}

/** The mailbox's folders (key and role), by key: what a plan moves messages between. */
export function foldersOfMailbox(tx: Pick<Tx, 'mailFolder'>, mailboxId: string) {
  return tx.mailFolder.findMany({ where: { mailboxId }, select: { key: true, role: true }, orderBy: { key: 'asc' } });
}

/** The operations an action records, for the provider's apply job to carry out. */
export function insertOperations(tx: Tx, data: Prisma.MailOperationCreateManyInput[]) {
  return tx.mailOperation.createMany({ data });
}

/** The provider and status of a message's mailbox (it exists: the message points at it). */
export function mailboxOfMessage(tx: Pick<Tx, 'mailbox'>, mailboxId: string) {
  return tx.mailbox.findUniqueOrThrow({ where: { id: mailboxId }, select: { provider: true, status: true } });
}

export type ActionMessage = {
  id: string;
  threadId: string | null;
  mailboxId: string;
  folderKey: string;
  sent: boolean;
  providerKey: string;
  seen: boolean;
  flagged: boolean;
  labels: string[];
  messageIdHeader: string | null;
};

/** The member's message as an action reads it, or null (another member's message does not exist for them). */
export function memberMessageForAction(tx: Pick<Tx, 'mailMessage'>, memberId: string, messageId: string): Promise<ActionMessage | null> {
  return tx.mailMessage.findFirst({
    where: { id: messageId, mailbox: { memberId } },
    select: { id: true, threadId: true, mailboxId: true, folderKey: true, sent: true, providerKey: true, seen: true, flagged: true, labels: true, messageIdHeader: true },
  });
}

/** The member's messages as an undo compares them (where they are, read, flagged, labels); others' are absent. */
export function findMessageStates(memberId: string, ids: string[], tx: Pick<Tx, 'mailMessage'> = db()) {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.mailMessage.findMany({
    where: { id: { in: ids }, mailbox: { memberId } },
    select: { id: true, mailboxId: true, folderKey: true, seen: true, flagged: true, labels: true },
  });
}

/** The folder keys of the member's mailboxes, by mailbox. */
export async function findFolderKeysOfMailboxes(memberId: string, mailboxIds: string[], tx: Pick<Tx, 'mailFolder'> = db()): Promise<Map<string, Set<string>>> {
  const byMailbox = new Map<string, Set<string>>();
  if (mailboxIds.length === 0) return byMailbox;
  const rows = await tx.mailFolder.findMany({ where: { mailboxId: { in: mailboxIds }, mailbox: { memberId } }, select: { mailboxId: true, key: true } });
  for (const row of rows) {
    const keys = byMailbox.get(row.mailboxId) ?? new Set<string>();
    keys.add(row.key);
    byMailbox.set(row.mailboxId, keys);
  }
  return byMailbox;
}

/**
 * Where the member's messages with these Message-IDs are now, by mailbox: a message moved by another
 * mail client has a new row (IMAP gives it a new identity), found again by its Message-ID.
 */
export async function findFoldersByMessageIdHeader(memberId: string, wanted: { mailboxId: string; messageIdHeader: string }[], tx: Pick<Tx, 'mailMessage'> = db()) {
  if (wanted.length === 0) return [];
  return tx.mailMessage.findMany({
    where: { mailbox: { memberId }, OR: wanted.map((one) => ({ mailboxId: one.mailboxId, messageIdHeader: one.messageIdHeader })) },
    select: { mailboxId: true, messageIdHeader: true, folderKey: true },
  });
}

/** Which of these client tokens the member's operations already carry (an action made before a crash). */
export async function findUsedClientTokens(memberId: string, tokens: string[], tx: Pick<Tx, 'mailOperation'> = db()): Promise<Set<string>> {
  if (tokens.length === 0) return new Set();
  const rows = await tx.mailOperation.findMany({ where: { memberId, clientToken: { in: tokens } }, select: { clientToken: true }, distinct: ['clientToken'] });
  return new Set(rows.flatMap((row) => (row.clientToken ? [row.clientToken] : [])));
}
