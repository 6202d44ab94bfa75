/**
 * The member's approvals: the list (the approvals inbox) and the decision from the application.
 * Another member's approval is 404 `approval.not_found`, never 403.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf } from '../../core/audit';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { decideLocked, lockApproval, type Decision } from './decide';
import { presentApprovals } from './present';
import { findApprovals } from './repo';
import type { ListApprovalsQuery } from './schemas';

/**
 * Newest first. With `messageId`: the approvals of runs that message started, as one page (there are
 * few: one per approval step of each run), `nextCursor` null.
 */
export async function listApprovals(actor: AuthenticatedActor, query: ListApprovalsQuery) {
  const memberId = actor.member.id;
  if (query.messageId) {
    const rows = await findApprovals(memberId, { status: query.status, messageId: query.messageId }, null, query.limit);
    return { approvals: await presentApprovals(rows), nextCursor: null };
  }
  const rows = await findApprovals(memberId, { status: query.status }, decodeCursor(query.cursor), query.limit + 1);
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  return { approvals: await presentApprovals(items), nextCursor };
}

function memberLabel(actor: AuthenticatedActor): string {
  return actor.member.email || actor.member.name || actor.member.id;
}

export async function decideApproval(actor: AuthenticatedActor, id: string, decision: Decision) {
  return db().$transaction(async (tx) => {
    const row = await lockApproval(tx, id);
    if (!row || row.memberId !== actor.member.id) throw appError('approval.not_found');
    const outcome = await decideLocked(tx, row, decision, { via: 'app', decidedBy: memberLabel(actor), auditBy: auditByOf(actor) });
    if (outcome.kind === 'closed') {
      const status = row.status === 'pending' ? 'expired' : row.status;
      throw appError('approval.already_decided', { details: { status, decidedBy: row.decidedBy, decidedAt: row.decidedAt?.toISOString() ?? null } });
    }
    const [approval] = await presentApprovals([outcome.row], tx);
    return { approval, resumed: outcome.resumed };
  });
}
