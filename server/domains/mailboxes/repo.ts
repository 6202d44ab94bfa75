/**
 * The mailboxes domain's queries. A member's mailboxes are read through `findOwnedOrThrow` /
 * `lockOwnedOrThrow` only: an id that names no mailbox of the caller (malformed, unknown, another
 * member's) is one 404 `mailbox.not_found`, never a 403.
 */
import type { Mailbox, Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { isUuid } from '../../core/ids';

export function listMemberMailboxes(memberId: string): Promise<Mailbox[]> {
  return db().mailbox.findMany({ where: { memberId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function findOwnedOrThrow(memberId: string, id: string, tx: Tx = db()): Promise<Mailbox> {
  const mailbox = isUuid(id) ? await tx.mailbox.findFirst({ where: { id: id.toLowerCase(), memberId } }) : null;
  if (!mailbox) throw appError('mailbox.not_found');
  return mailbox;
}

/** The member's mailbox under FOR UPDATE, read again: concurrent disconnects, deletes and reconnects serialise on it. */
export async function lockOwnedOrThrow(memberId: string, id: string, tx: Tx): Promise<Mailbox> {
  const found = await findOwnedOrThrow(memberId, id, tx);
  await tx.$queryRaw`SELECT id FROM mailboxes WHERE id = ${found.id}::uuid FOR UPDATE`;
  return findOwnedOrThrow(memberId, found.id, tx);
}

/** Serialises connections of one address by one member (two concurrent first connects make one mailbox). */
export async function lockAddress(memberId: string, provider: string, address: string, tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`mailbox:${memberId}:${provider}:${address}`}))`;
}

export function findByAddress(memberId: string, provider: string, address: string, tx: Tx): Promise<Mailbox | null> {
  return tx.mailbox.findUnique({ where: { memberId_provider_address: { memberId, provider, address } } });
}

export function insertMailbox(data: Prisma.MailboxUncheckedCreateInput, tx: Tx): Promise<Mailbox> {
  return tx.mailbox.create({ data });
}

export function updateMailbox(id: string, data: Prisma.MailboxUncheckedUpdateInput, tx: Tx): Promise<Mailbox> {
  return tx.mailbox.update({ where: { id }, data });
}

/** The member's mailboxes that are not disconnected, locked (member deactivation disconnects them). */
export async function lockLiveMailboxes(memberId: string, tx: Tx): Promise<Mailbox[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM mailboxes WHERE member_id = ${memberId}::uuid AND status <> 'disconnected' ORDER BY id FOR UPDATE`;
  if (rows.length === 0) return [];
  return tx.mailbox.findMany({ where: { id: { in: rows.map((row) => row.id) } }, orderBy: { id: 'asc' } });
}

export function countMessages(mailboxId: string, tx: Tx = db()): Promise<number> {
  return tx.mailMessage.count({ where: { mailboxId } });
}

/** Mailboxes per member (every row: a deleted mailbox has no row left), for the Member resource. */
export async function countMailboxesByMember(memberIds: string[], tx: Tx = db()): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (memberIds.length === 0) return counts;
  const rows = await tx.mailbox.groupBy({ by: ['memberId'], where: { memberId: { in: memberIds } }, _count: { _all: true } });
  for (const row of rows) counts.set(row.memberId, row._count._all);
  return counts;
}

// --- credentials -----------------------------------------------------------------------------

export function findCredential(id: string, tx: Tx) {
  return tx.credential.findUnique({ where: { id } });
}

export function insertCredential(data: Prisma.CredentialUncheckedCreateInput, tx: Tx) {
  return tx.credential.create({ data });
}

export function updateCredential(id: string, data: Prisma.CredentialUncheckedUpdateInput, tx: Tx) {
  return tx.credential.update({ where: { id }, data });
}

export async function deleteCredential(id: string, tx: Tx): Promise<void> {
  await tx.credential.deleteMany({ where: { id } });
}

// --- the mirror (deletion) -------------------------------------------------------------------

/** The next batch of a mailbox's messages, with the blob keys of their stored attachments. */
export async function messageBatch(mailboxId: string, size: number, tx: Tx): Promise<{ ids: string[]; blobKeys: string[] }> {
  const messages = await tx.mailMessage.findMany({ where: { mailboxId }, select: { id: true }, orderBy: { id: 'asc' }, take: size });
  const ids = messages.map((message) => message.id);
  if (ids.length === 0) return { ids, blobKeys: [] };
  const attachments = await tx.mailAttachment.findMany({ where: { messageId: { in: ids }, blobKey: { not: null } }, select: { blobKey: true } });
  return { ids, blobKeys: attachments.flatMap((attachment) => (attachment.blobKey ? [attachment.blobKey] : [])) };
}

export async function deleteMessages(ids: string[], tx: Tx): Promise<number> {
  const { count } = await tx.mailMessage.deleteMany({ where: { id: { in: ids } } });
  return count;
}

/** Webmail operations of the mailbox (no foreign key: they would outlive it otherwise). */
export async function deleteOperations(mailboxId: string, tx: Tx): Promise<void> {
  await tx.mailOperation.deleteMany({ where: { mailboxId } });
}

export async function deleteMailbox(id: string, tx: Tx): Promise<void> {
  await tx.mailbox.delete({ where: { id } });
}

/** Drops a waiting job by its key (graphile-worker's own function; a job already running is left to end). */
export async function removeQueuedJob(key: string, tx: Tx): Promise<void> {
  await tx.$executeRaw`SELECT graphile_worker.remove_job(${key}::text)`;
}
