/** The review queue's and the sending journal's reads, always scoped to one member. */
import { db, type Tx } from '../../core/db';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';
import type { OutboundMessage, Prisma } from '../../generated/prisma/client';
import type { ListReviewInput } from './schemas';

/** Review states an item can still be decided from. */
export const openStatuses = ['pending', 'snoozed'];

/**
 * Snoozed items whose time came are pending again: flipped on read (the list, the count), one
 * statement over the member's snoozed rows (the (member, review status) index).
 */
export function wakeSnoozed(memberId: string, now: Date, tx: Pick<Tx, 'outboundMessage'> = db()) {
  return tx.outboundMessage.updateMany({ where: { memberId, reviewStatus: 'snoozed', snoozeUntil: { lte: now } }, data: { reviewStatus: 'pending', snoozeUntil: null } });
}

function queueWhere(memberId: string, filter: Pick<ListReviewInput, 'mailboxId' | 'workflowId'>, status: ListReviewInput['status']): Prisma.OutboundMessageWhereInput {
  return {
    memberId,
    ...(status === 'all' ? { reviewStatus: { not: 'none' } } : status === 'unknown' ? { sendStatus: 'unknown' } : { reviewStatus: status }),
    ...(filter.mailboxId ? { mailboxId: filter.mailboxId } : {}),
    ...(filter.workflowId ? { workflowId: filter.workflowId } : {}),
  };
}

export function findQueuePage(memberId: string, query: ListReviewInput, after: CursorPosition | null, take: number) {
  return db().outboundMessage.findMany({
    where: { ...queueWhere(memberId, query, query.status), ...afterCursor('createdAt', after) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export function countPending(memberId: string, filter: Pick<ListReviewInput, 'mailboxId' | 'workflowId'>, tx: Pick<Tx, 'outboundMessage'> = db()) {
  return tx.outboundMessage.count({ where: queueWhere(memberId, filter, 'pending') });
}

export function findOwnItem(memberId: string, id: string, tx: Pick<Tx, 'outboundMessage'> = db()) {
  return tx.outboundMessage.findFirst({ where: { id, memberId } });
}

/** The mirrored sent copies of sent items, found by their Message-ID in their mailbox. */
export async function sentCopiesOf(rows: { id: string; mailboxId: string; messageIdHeader: string; sendStatus: string }[]) {
  const sent = rows.filter((row) => row.sendStatus === 'done');
  const copies = new Map<string, { id: string; threadId: string | null }>();
  if (sent.length === 0) return copies;
  const found = await db().mailMessage.findMany({
    where: { OR: sent.map((row) => ({ mailboxId: row.mailboxId, messageIdHeader: row.messageIdHeader })) },
    select: { id: true, threadId: true, mailboxId: true, messageIdHeader: true },
  });
  const byHeader = new Map(found.map((message) => [`${message.mailboxId} ${message.messageIdHeader}`, message]));
  for (const row of sent) {
    const copy = byHeader.get(`${row.mailboxId} ${row.messageIdHeader}`);
    if (copy) copies.set(row.id, { id: copy.id, threadId: copy.threadId });
  }
  return copies;
}

export function findJournalPage(
  memberId: string,
  filter: { mailboxId?: string; outboundId?: string; event?: string },
  after: CursorPosition | null,
  take: number,
) {
  return db().sendingJournalEntry.findMany({
    where: {
      memberId,
      ...(filter.mailboxId ? { mailboxId: filter.mailboxId } : {}),
      ...(filter.outboundId ? { outboundId: filter.outboundId } : {}),
      ...(filter.event ? { event: filter.event } : {}),
      ...afterCursor('createdAt', after),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export async function headlinesOf(outboundIds: string[]) {
  if (outboundIds.length === 0) return new Map<string, { subject: string; recipients: string[] }>();
  const rows = await db().outboundMessage.findMany({ where: { id: { in: [...new Set(outboundIds)] } }, select: { id: true, subject: true, toAddrs: true, ccAddrs: true } });
  return new Map(rows.map((row) => [row.id, { subject: row.subject, recipients: [...row.toAddrs, ...row.ccAddrs] }]));
}

/** Names and sizes of the attachments of an item, from where each one lives. */
export async function attachmentsOf(memberId: string, mailboxId: string, attachments: unknown) {
  const list = Array.isArray(attachments) ? (attachments as Record<string, unknown>[]) : [];
  const uploads = list.filter((entry) => entry?.source === 'upload' && typeof entry.uploadId === 'string').map((entry) => entry.uploadId as string);
  const fromMessages = list.filter((entry) => entry?.source === 'message' && typeof entry.messageId === 'string' && typeof entry.position === 'number');
  const [uploadRows, messageRows] = await Promise.all([
    uploads.length ? db().uploadedAttachment.findMany({ where: { memberId, id: { in: uploads } }, select: { id: true, filename: true, mime: true, size: true } }) : [],
    fromMessages.length
      ? db().mailAttachment.findMany({
          where: { OR: fromMessages.map((entry) => ({ messageId: entry.messageId as string, position: entry.position as number })), message: { mailboxId } },
          select: { messageId: true, position: true, filename: true, mime: true, size: true },
        })
      : [],
  ]);
  const uploadById = new Map(uploadRows.map((row) => [row.id, row]));
  const messagePart = new Map(messageRows.map((row) => [`${row.messageId}:${row.position}`, row]));
  const out: { filename: string; mime: string; size: number }[] = [];
  for (const entry of list) {
    const found =
      entry?.source === 'upload'
        ? uploadById.get(entry.uploadId as string)
        : entry?.source === 'message'
          ? messagePart.get(`${entry.messageId as string}:${entry.position as number}`)
          : entry?.source === 'blob' && typeof entry.filename === 'string'
            ? { filename: entry.filename, mime: typeof entry.mime === 'string' ? entry.mime : 'application/octet-stream', size: typeof entry.size === 'number' ? entry.size : 0 }
            : undefined;
    if (found) out.push({ filename: found.filename, mime: found.mime, size: Math.max(0, Math.trunc(found.size)) });
  }
  return out;
}

/** Locks the member's rows (one decision at a time per item), then reads them. */
export async function lockOwnItems(tx: Tx, memberId: string, ids: string[]): Promise<Map<string, OutboundMessage>> {
  if (ids.length === 0) return new Map();
  await tx.$queryRaw`SELECT id FROM outbound_messages WHERE id = ANY(${ids}::uuid[]) AND member_id = ${memberId}::uuid ORDER BY id FOR UPDATE`;
  const rows = await tx.outboundMessage.findMany({ where: { id: { in: ids }, memberId } });
  return new Map(rows.map((row) => [row.id, row]));
}

export async function lockOwnItem(tx: Tx, memberId: string, id: string) {
  return (await lockOwnItems(tx, memberId, [id])).get(id) ?? null;
}

/** Writes a decision on an item (locked by lockOwnItem(s) in the same transaction). */
export function updateItem(tx: Tx, id: string, data: Prisma.OutboundMessageUpdateInput) {
  return tx.outboundMessage.update({ where: { id }, data });
}

/** A member's decision kept in the sending journal (`rejected`, `resolved`). */
export function journalDecision(tx: Tx, data: Prisma.SendingJournalEntryUncheckedCreateInput) {
  return tx.sendingJournalEntry.create({ data });
}

/** Where the member's items stand (an undo of a run's drafts decides from it); another member's are absent. */
export function findItemStates(memberId: string, ids: string[], tx: Pick<Tx, 'outboundMessage'> = db()) {
  if (ids.length === 0) return Promise.resolve([]);
  return tx.outboundMessage.findMany({
    where: { memberId, id: { in: ids } },
    select: { id: true, reviewStatus: true, sendStatus: true, toAddrs: true, subject: true },
  });
}
