/** Stored approvals to the API shape, with the triggering message read from the mirror (one query per page). */
import type { Approval } from '../../generated/prisma/client';
import type { Tx } from '../../core/db';
import { iso } from '../../core/http/schemas';
import { findMessageHeadlines } from '../mail';
import type { ApprovalOutput, ApprovalStatus } from './schemas';

type TriggerMessage = { id: string; fromName: string | null; fromEmail: string | null; subject: string | null; receivedAt: Date };
type Reader = Pick<Tx, 'mailMessage'>;

const statuses = new Set(['pending', 'approved', 'rejected', 'expired']);

export function presentApproval(row: Approval, message: TriggerMessage | null): ApprovalOutput {
  return {
    id: row.id,
    status: (statuses.has(row.status) ? row.status : 'pending') as ApprovalStatus,
    title: row.title,
    details: row.details,
    executionId: row.executionId,
    workflowId: row.workflowId,
    workflowName: row.workflowName,
    nodeId: row.nodeId,
    trigger: message
      ? { messageId: message.id, fromName: message.fromName, fromEmail: message.fromEmail ?? '', subject: message.subject ?? '', receivedAt: iso(message.receivedAt) }
      : null,
    expiresAt: iso(row.expiresAt),
    decidedBy: row.decidedBy,
    decidedAt: iso(row.decidedAt),
    createdAt: iso(row.createdAt),
  };
}

/** Presents rows, reading their triggering messages (the member's own mirror only) at once. */
export async function presentApprovals(rows: Approval[], tx?: Reader): Promise<ApprovalOutput[]> {
  const ids = [...new Set(rows.map((row) => row.triggerMessageId).filter((id): id is string => id !== null))];
  const messages = ids.length ? await findMessageHeadlines(ids, [...new Set(rows.map((row) => row.memberId))], tx) : [];
  const byId = new Map(messages.map((message) => [message.id, message]));
  return rows.map((row) => presentApproval(row, row.triggerMessageId ? (byId.get(row.triggerMessageId) ?? null) : null));
}
