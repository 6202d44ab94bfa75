/** The messages journal's reads, always scoped to one member. */
import { db } from '../../core/db';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';

/** The member's message (through its mailbox), or null. */
export function findOwnMessage(memberId: string, messageId: string) {
  return db().mailMessage.findFirst({ where: { id: messageId, mailbox: { memberId } }, select: { id: true } });
}

export function findEntryOfMessage(memberId: string, messageId: string) {
  return db().mailJournalEntry.findFirst({ where: { messageId, memberId } });
}

/** Runs started for the message, or that carry it in a burst (`execution_batch_messages`), newest first. */
export function findExecutionsOfMessage(memberId: string, messageId: string, take: number) {
  return db().execution.findMany({
    where: { memberId, evalRunId: null, OR: [{ messageId }, { batchMessages: { some: { messageId } } }] },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    select: { id: true, workflowId: true, status: true, simulated: true, createdAt: true, finishedAt: true },
  });
}

export async function workflowNames(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db().workflow.findMany({ where: { id: { in: [...new Set(ids)] } }, select: { id: true, name: true } });
  return new Map(rows.map((row) => [row.id, row.name]));
}

export function isOwnMailbox(memberId: string, mailboxId: string) {
  return db().mailbox.count({ where: { id: mailboxId, memberId } }).then((count) => count > 0);
}

/** The time window is `[from, to)` on `created_at`, the dashboard's own counting rule (server/domains/dashboard/mail-sql.ts). */
export function findEntries(memberId: string, filter: { mailboxId?: string; outcome?: string; from?: Date; to?: Date }, after: CursorPosition | null, take: number) {
  return db().mailJournalEntry.findMany({
    where: {
      memberId,
      ...(filter.mailboxId ? { mailboxId: filter.mailboxId } : {}),
      ...(filter.outcome ? { outcome: filter.outcome } : {}),
      ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lt: filter.to } : {}) } } : {}),
      ...afterCursor('createdAt', after),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

export interface MessageHeadline {
  subject: string | null;
  fromEmail: string | null;
  threadId: string | null;
}

export async function headlinesOf(messageIds: string[]): Promise<Map<string, MessageHeadline>> {
  if (messageIds.length === 0) return new Map();
  const rows = await db().mailMessage.findMany({ where: { id: { in: messageIds } }, select: { id: true, subject: true, fromEmail: true, threadId: true } });
  return new Map(rows.map((row) => [row.id, { subject: row.subject, fromEmail: row.fromEmail, threadId: row.threadId }]));
}

/** The member's published mail workflows (paused ones too, archived ones not), oldest first. */
export function findPublishedMailWorkflows(memberId: string, take: number) {
  return db().$queryRaw<{ id: string; name: string; paused: boolean; graph: unknown; triggerNodeId: string | null }[]>`
    SELECT w.id, w.name, w.paused, v.graph, v.trigger_node_id AS "triggerNodeId"
      FROM workflows w
      JOIN workflow_versions v ON v.id = w.published_version_id
     WHERE w.member_id = ${memberId}::uuid AND w.archived_at IS NULL AND v.trigger_type = 'mail'
     ORDER BY w.created_at, w.id
     LIMIT ${take}`;
}

/** The workflows a real (not simulated) top-level run was started for on the message. */
export async function workflowsStartedOn(memberId: string, messageId: string): Promise<Set<string>> {
  const rows = await db().execution.findMany({
    where: { messageId, memberId, simulated: false, evalRunId: null, parentExecutionId: null },
    distinct: ['workflowId'],
    select: { workflowId: true },
  });
  return new Set(rows.map((row) => row.workflowId));
}
