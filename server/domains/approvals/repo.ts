/** The approval list's queries, always scoped to one member. */
import { db } from '../../core/db';
import { afterCursor, type CursorPosition } from '../../core/http/cursor';
import type { ApprovalStatus } from './schemas';

/** Newest first, strictly after `after`; `take` rows at most. */
export function findApprovals(memberId: string, filter: { status: ApprovalStatus; messageId?: string }, after: CursorPosition | null, take: number) {
  return db().approval.findMany({
    where: {
      memberId,
      status: filter.status,
      ...(filter.messageId ? { triggerMessageId: filter.messageId } : {}),
      ...afterCursor('createdAt', after),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
  });
}
