/** Stored support rows → the answers of the routes (spec, Resources → Support thread). */
import { iso } from '../../core/http/schemas';
import type { ThreadRow, ThreadSummaryRow } from './repo';
import type { ThreadOutput, ThreadSummaryOutput } from './schemas';

/** Unread for this reader: a team message after their read mark (the row's `reads` hold the reader's mark only). */
function unreadOf(row: ThreadSummaryRow): boolean {
  if (row.lastTeamSeq === null) return false;
  const mark = row.reads[0]?.lastReadSeq;
  return mark === undefined || mark < row.lastTeamSeq;
}

export function presentThreadSummary(row: ThreadSummaryRow): ThreadSummaryOutput {
  return {
    id: row.id,
    kind: row.kind as ThreadSummaryOutput['kind'],
    subject: row.subject,
    status: row.status as ThreadSummaryOutput['status'],
    assigneeName: row.assigneeName,
    authorName: row.authorName,
    authorMemberId: row.authorMemberId,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
    lastMessageAt: iso(row.lastMessageAt),
    messageCount: row.messageCount,
    unread: unreadOf(row),
    pending: row._count.messages > 0,
  };
}

export function presentThread(row: ThreadRow): ThreadOutput {
  return {
    ...presentThreadSummary(row),
    messages: row.messages.map((message) => ({
      id: message.id,
      direction: message.direction as 'member' | 'team',
      authorName: message.authorName,
      body: message.body,
      createdAt: iso(message.createdAt),
      pending: message.deliveredAt === null,
    })),
  };
}
