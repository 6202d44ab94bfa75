/**
 * The guard's counting queries and locks. A send counts when its row is `done` or `running`, at the
 * instant it went (sent, else started); the item being judged never counts itself. After a hold of a
 * rule and scope is released, that rule counts sends from the release on (the member said those were
 * fine), so a release does not trip again at once on the same history.
 */
import type { Tx } from '../../core/db';
import { afterCursor, decodeCursor } from '../../core/http/cursor';
import type { OutboundMessage, Prisma, SendHold } from '../../generated/prisma/client';
import type { HoldReason } from './rules';
import type { ListHoldsQuery } from './schemas';

/**
 * Serialises the guard's decisions on one mailbox (and one workflow) until the transaction ends, so
 * two runners claiming at the cap boundary cannot both count below it. Always mailbox first, then
 * workflow: one order, no deadlock.
 */
export async function lockScopes(tx: Tx, mailboxId: string | null, workflowId: string | null): Promise<void> {
  if (mailboxId) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`send-guard:mailbox:${mailboxId}`}, 0))`;
  if (workflowId) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`send-guard:workflow:${workflowId}`}, 0))`;
}

/** Reasons of the holds this item was released from (journal `released` entries). */
export async function releasedReasons(tx: Tx, outboundId: string): Promise<Set<string>> {
  const rows = await tx.sendingJournalEntry.findMany({ where: { outboundId, event: 'released', reason: { not: null } }, select: { reason: true }, distinct: ['reason'] });
  return new Set(rows.map((row) => row.reason ?? ''));
}

/** The start of a rule's window: `windowMs` ago, or the last release of a hold of that rule and scope if later. */
export async function windowStart(
  tx: Tx,
  scope: { mailboxId: string; workflowId: null } | { workflowId: string },
  reason: HoldReason,
  windowMs: number,
  now: Date,
): Promise<Date> {
  const last = await tx.sendHold.findFirst({
    where: { ...scope, reason, releasedAt: { not: null } },
    orderBy: { releasedAt: 'desc' },
    select: { releasedAt: true },
  });
  const start = new Date(now.getTime() - windowMs);
  return last?.releasedAt && last.releasedAt > start ? last.releasedAt : start;
}

export async function countMailboxSends(tx: Tx, mailboxId: string, exceptId: string, since: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outbound_messages o
    WHERE o.mailbox_id = ${mailboxId}::uuid AND o.id <> ${exceptId}::uuid AND o.send_status IN ('done', 'running')
      AND coalesce(o.sent_at, o.send_started_at, o.updated_at) >= ${since}`;
  return row?.n ?? 0;
}

export async function countWorkflowSends(tx: Tx, workflowId: string, exceptId: string, since: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outbound_messages o
    WHERE o.workflow_id = ${workflowId}::uuid AND o.id <> ${exceptId}::uuid AND o.send_status IN ('done', 'running')
      AND coalesce(o.sent_at, o.send_started_at, o.updated_at) >= ${since}`;
  return row?.n ?? 0;
}

/**
 * The sender of the answered message when it is automatic mail (an auto-reply, or a delivery report:
 * a bounce answers itself as surely as a vacation reply), else null.
 */
export async function autoReplyCounterpart(tx: Tx, relatedMessageId: string, mailboxId: string): Promise<string | null> {
  const message = await tx.mailMessage.findFirst({
    where: { id: relatedMessageId, mailboxId },
    select: { isAutoReply: true, isDeliveryReport: true, fromEmail: true },
  });
  return (message?.isAutoReply || message?.isDeliveryReport) && message.fromEmail ? message.fromEmail.trim().toLowerCase() : null;
}

/** Automated sends (not the member's webmail, not reviewed by a human) of the mailbox to the counterpart since. */
export async function countAutomatedSendsTo(tx: Tx, mailboxId: string, counterpart: string, exceptId: string, since: Date): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM outbound_messages o
    WHERE o.mailbox_id = ${mailboxId}::uuid AND o.id <> ${exceptId}::uuid AND o.send_status IN ('done', 'running')
      AND o.origin <> 'webmail' AND o.review_status = 'none'
      AND coalesce(o.sent_at, o.send_started_at, o.updated_at) >= ${since}
      AND EXISTS (
        SELECT 1 FROM unnest(o.to_addrs || o.cc_addrs || o.bcc_addrs) AS a(addr)
        WHERE lower(btrim(regexp_replace(a.addr, '^.*<([^<>]*)>\\s*$', '\\1'))) = ${counterpart}
      )`;
  return row?.n ?? 0;
}

/** Of the given recipients, the one the workflow sent to most since without a human's review, with its count (null: none). */
export async function busiestRecipient(tx: Tx, workflowId: string, recipients: string[], exceptId: string, since: Date): Promise<{ recipient: string; sends: number } | null> {
  if (recipients.length === 0) return null;
  const rows = await tx.$queryRaw<{ recipient: string; n: number }[]>`
    SELECT r.recipient, count(DISTINCT o.id)::int AS n
    FROM outbound_messages o
    CROSS JOIN LATERAL (
      SELECT lower(btrim(regexp_replace(a.addr, '^.*<([^<>]*)>\\s*$', '\\1'))) AS recipient
      FROM unnest(o.to_addrs || o.cc_addrs || o.bcc_addrs) AS a(addr)
    ) r
    WHERE o.workflow_id = ${workflowId}::uuid AND o.id <> ${exceptId}::uuid AND o.send_status IN ('done', 'running')
      AND o.review_status = 'none'
      AND coalesce(o.sent_at, o.send_started_at, o.updated_at) >= ${since}
      AND r.recipient = ANY(${recipients}::text[])
    GROUP BY r.recipient
    ORDER BY n DESC, r.recipient
    LIMIT 1`;
  const row = rows[0];
  return row ? { recipient: row.recipient, sends: row.n } : null;
}

/** Items a hold keeps now. */
export async function countHeld(tx: Pick<Tx, 'outboundMessage'>, holdId: string): Promise<number> {
  return tx.outboundMessage.count({ where: { holdId, sendStatus: 'held' } });
}

/** The member's holds, newest first, one page (and one row more, to know whether another page follows). */
export function listMemberHolds(tx: Pick<Tx, 'sendHold'>, memberId: string, query: ListHoldsQuery): Promise<SendHold[]> {
  return tx.sendHold.findMany({
    where: {
      memberId,
      ...(query.status === 'open' ? { releasedAt: null } : {}),
      ...afterCursor('createdAt', decodeCursor(query.cursor)),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
}

/** What a hold's answer names: its mailbox's address, its workflow's name, and how many items open holds keep. */
export function holdLabels(tx: Pick<Tx, 'mailbox' | 'workflow' | 'outboundMessage'>, mailboxIds: string[], workflowIds: string[], openIds: string[]) {
  return Promise.all([
    tx.mailbox.findMany({ where: { id: { in: mailboxIds } }, select: { id: true, address: true } }),
    tx.workflow.findMany({ where: { id: { in: workflowIds } }, select: { id: true, name: true } }),
    openIds.length > 0
      ? tx.outboundMessage.groupBy({ by: ['holdId'], where: { holdId: { in: openIds }, sendStatus: 'held' }, _count: { _all: true } })
      : Promise.resolve([]),
  ]);
}

/** The scope of the member's hold (null: not theirs, or none). */
export function memberHoldScope(tx: Tx, id: string, memberId: string) {
  return tx.sendHold.findFirst({ where: { id, memberId }, select: { mailboxId: true, workflowId: true } });
}

/** The hold under FOR UPDATE, read again. */
export async function lockHold(tx: Tx, id: string): Promise<SendHold> {
  await tx.$executeRaw`SELECT 1 FROM send_holds WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.sendHold.findUniqueOrThrow({ where: { id } });
}

/** The items a hold keeps now. */
export function heldItems(tx: Tx, holdId: string) {
  return tx.outboundMessage.findMany({ where: { holdId, sendStatus: 'held' }, select: { id: true, mailboxId: true, notBefore: true } });
}

/** The hold's items back to `pending`, each journalled `released` with the hold's reason (their send jobs are the caller's). */
export async function returnToPending(tx: Tx, hold: Pick<SendHold, 'memberId' | 'reason'>, items: Pick<OutboundMessage, 'id' | 'mailboxId'>[]): Promise<void> {
  await tx.outboundMessage.updateMany({ where: { id: { in: items.map((item) => item.id) } }, data: { sendStatus: 'pending', holdId: null } });
  await tx.sendingJournalEntry.createMany({
    data: items.map((item) => ({ memberId: hold.memberId, outboundId: item.id, mailboxId: item.mailboxId, event: 'released', reason: hold.reason })),
  });
}

/** Another open hold of the member that paused this workflow. */
export function otherHoldPausing(tx: Tx, exceptId: string, memberId: string, workflowId: string): Promise<{ id: string } | null> {
  return tx.sendHold.findFirst({
    where: { id: { not: exceptId }, memberId, releasedAt: null, details: { path: ['pausedWorkflowId'], equals: workflowId } },
    select: { id: true },
  });
}

/** Un-pauses the member's workflow; whether it was paused. */
export async function unpauseWorkflow(tx: Tx, workflowId: string, memberId: string): Promise<boolean> {
  return (await tx.workflow.updateMany({ where: { id: workflowId, memberId, paused: true }, data: { paused: false } })).count > 0;
}

export function markReleased(tx: Tx, id: string, releasedBy: string, releasedAt: Date, details: Record<string, string | number | boolean>): Promise<SendHold> {
  return tx.sendHold.update({ where: { id }, data: { releasedAt, releasedBy, details } });
}

/** The member's oldest open hold of any of these scopes (each a where of mailbox, workflow and reason), or null. */
export function findOpenHoldOfScopes(tx: Tx, memberId: string, scopes: object[]): Promise<{ id: string } | null> {
  return tx.sendHold.findFirst({
    where: { memberId, releasedAt: null, OR: scopes },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
}

/** A workflow's settings (its own hourly cap may be there). */
export function workflowSettingsOf(tx: Tx, workflowId: string) {
  return tx.workflow.findUnique({ where: { id: workflowId }, select: { settings: true } });
}

/** What opening a hold needs of the item's workflow: its name, whether it is paused, its owner. */
export function workflowForHold(tx: Tx, workflowId: string) {
  return tx.workflow.findUnique({ where: { id: workflowId }, select: { id: true, name: true, paused: true, memberId: true } });
}

export function insertHold(tx: Tx, data: Prisma.SendHoldUncheckedCreateInput): Promise<{ id: string }> {
  return tx.sendHold.create({ data, select: { id: true } });
}

export async function pauseWorkflow(tx: Tx, workflowId: string): Promise<void> {
  await tx.workflow.update({ where: { id: workflowId }, data: { paused: true } });
}
