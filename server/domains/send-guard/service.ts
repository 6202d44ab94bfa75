/**
 * The member's send holds: listing them, and releasing one (one click). A release puts every item the
 * hold keeps back to `pending` with its send job (journal `released`, reason = the hold's), un-pauses
 * the workflow the trip paused (unless another open hold paused it too), and is remembered: the
 * released items skip the rule that tripped, and that rule counts sends from the release on
 * (./reading.ts, each count's window). Nothing is dropped.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { pageOf } from '../../core/http/cursor';
import { iso } from '../../core/http/schemas';
import { emitToMember } from '../../core/realtime/emit';
import type { SendHold } from '../../generated/prisma/client';
import { enqueueSend } from '../outbound';
import { heldItems, holdLabels, listMemberHolds, lockHold, lockScopes, markReleased, memberHoldScope, otherHoldPausing, returnToPending, unpauseWorkflow } from './repo';
import type { HoldReason } from './rules';
import type { ListHoldsQuery, SendHoldOutput } from './schemas';

type Details = Record<string, string | number | boolean>;

function detailsOf(row: SendHold): Details {
  const value = row.details;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((entry): entry is [string, string | number | boolean] => ['string', 'number', 'boolean'].includes(typeof entry[1])),
  );
}

async function present(rows: SendHold[], tx: Pick<Tx, 'mailbox' | 'workflow' | 'outboundMessage'> = db()): Promise<SendHoldOutput[]> {
  if (rows.length === 0) return [];
  const mailboxIds = [...new Set(rows.map((row) => row.mailboxId).filter((id): id is string => id !== null))];
  const workflowIds = [...new Set(rows.map((row) => row.workflowId).filter((id): id is string => id !== null))];
  const openIds = rows.filter((row) => !row.releasedAt).map((row) => row.id);
  const [mailboxes, workflows, held] = await holdLabels(tx, mailboxIds, workflowIds, openIds);
  const address = new Map(mailboxes.map((row) => [row.id, row.address]));
  const name = new Map(workflows.map((row) => [row.id, row.name]));
  const heldCount = new Map(held.map((row) => [row.holdId, row._count._all]));
  return rows.map((row) => {
    const details = detailsOf(row);
    const released = typeof details.releasedCount === 'number' ? details.releasedCount : 0;
    return {
      id: row.id,
      reason: row.reason as HoldReason,
      mailboxId: row.mailboxId,
      mailboxAddress: row.mailboxId ? (address.get(row.mailboxId) ?? null) : null,
      workflowId: row.workflowId,
      workflowName: row.workflowId ? (name.get(row.workflowId) ?? null) : null,
      heldCount: row.releasedAt ? released : (heldCount.get(row.id) ?? 0),
      details,
      createdAt: iso(row.createdAt),
      releasedAt: iso(row.releasedAt),
    };
  });
}

export async function listHolds(actor: AuthenticatedActor, query: ListHoldsQuery) {
  const rows = await listMemberHolds(db(), actor.member.id, query);
  const page = pageOf(rows, query.limit, (row) => row.createdAt);
  return { items: await present(page.items), nextCursor: page.nextCursor };
}

export async function releaseHold(actor: AuthenticatedActor, id: string) {
  return db().$transaction(async (tx) => {
    const found = await memberHoldScope(tx, id, actor.member.id);
    if (!found) throw appError('send_hold.not_found');
    // The claims of the hold's scope wait (or have finished): no item joins it while it is released.
    // A workflow-scoped hold keeps items of several mailboxes: its workflow lock is enough (and
    // taking no mailbox lock before it keeps the one lock order of ./repo.ts).
    await lockScopes(tx, found.workflowId ? null : found.mailboxId, found.workflowId);
    const hold = await lockHold(tx, id);
    if (hold.releasedAt) return { hold: (await present([hold], tx))[0] };

    const items = await heldItems(tx, id);
    const now = new Date();
    if (items.length > 0) {
      await returnToPending(tx, hold, items);
      for (const item of items) await enqueueSend(item.id, tx, item.notBefore && item.notBefore > now ? item.notBefore : null);
    }

    const details = detailsOf(hold);
    let unpaused = false;
    const pausedId = typeof details.pausedWorkflowId === 'string' ? details.pausedWorkflowId : null;
    if (details.pausedWorkflow === true && pausedId) {
      // Another open hold that paused the same workflow keeps it paused.
      const other = await otherHoldPausing(tx, id, hold.memberId, pausedId);
      if (!other) unpaused = await unpauseWorkflow(tx, pausedId, hold.memberId);
    }
    const released = await markReleased(tx, id, actor.member.id, now, { ...details, releasedCount: items.length, unpausedWorkflow: unpaused });
    await emitToMember(hold.memberId, 'sending.hold', { holdId: id, status: 'released' }, tx);
    return { hold: (await present([released], tx))[0] };
  });
}
