/**
 * The member's send holds: listing them, and releasing one (one click). A release puts every item the
 * hold keeps back to `pending` with its send job (journal `released`, reason = the hold's), un-pauses
 * the workflow the trip paused (unless another open hold paused it too), and is remembered: the
 * released items skip the rule that tripped, and that rule counts sends from the release on
 * (./repo.ts `windowStart`). Nothing is dropped.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { afterCursor, decodeCursor, pageOf } from '../../core/http/cursor';
import { iso } from '../../core/http/schemas';
import { emitToMember } from '../../core/realtime/emit';
import type { SendHold } from '../../generated/prisma/client';
import { enqueueSend } from '../outbound';
import { lockScopes } from './repo';
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
  const [mailboxes, workflows, held] = await Promise.all([
    tx.mailbox.findMany({ where: { id: { in: mailboxIds } }, select: { id: true, address: true } }),
    tx.workflow.findMany({ where: { id: { in: workflowIds } }, select: { id: true, name: true } }),
    openIds.length > 0
      ? tx.outboundMessage.groupBy({ by: ['holdId'], where: { holdId: { in: openIds }, sendStatus: 'held' }, _count: { _all: true } })
      : Promise.resolve([]),
  ]);
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
  const rows = await db().sendHold.findMany({
    where: {
      memberId: actor.member.id,
      ...(query.status === 'open' ? { releasedAt: null } : {}),
      ...afterCursor('createdAt', decodeCursor(query.cursor)),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: query.limit + 1,
  });
  const page = pageOf(rows, query.limit, (row) => row.createdAt);
  return { items: await present(page.items), nextCursor: page.nextCursor };
}

export async function releaseHold(actor: AuthenticatedActor, id: string) {
  return db().$transaction(async (tx) => {
    const found = await tx.sendHold.findFirst({ where: { id, memberId: actor.member.id }, select: { mailboxId: true, workflowId: true } });
    if (!found) throw appError('send_hold.not_found');
    // The claims of the hold's scope wait (or have finished): no item joins it while it is released.
    // A workflow-scoped hold keeps items of several mailboxes: its workflow lock is enough (and
    // taking no mailbox lock before it keeps the one lock order of ./repo.ts).
    await lockScopes(tx, found.workflowId ? null : found.mailboxId, found.workflowId);
    await tx.$executeRaw`SELECT 1 FROM send_holds WHERE id = ${id}::uuid FOR UPDATE`;
    const hold = await tx.sendHold.findUniqueOrThrow({ where: { id } });
    if (hold.releasedAt) return { hold: (await present([hold], tx))[0] };

    const items = await tx.outboundMessage.findMany({ where: { holdId: id, sendStatus: 'held' }, select: { id: true, mailboxId: true, notBefore: true } });
    const now = new Date();
    if (items.length > 0) {
      await tx.outboundMessage.updateMany({ where: { id: { in: items.map((item) => item.id) } }, data: { sendStatus: 'pending', holdId: null } });
      await tx.sendingJournalEntry.createMany({
        data: items.map((item) => ({ memberId: hold.memberId, outboundId: item.id, mailboxId: item.mailboxId, event: 'released', reason: hold.reason })),
      });
      for (const item of items) await enqueueSend(item.id, tx, item.notBefore && item.notBefore > now ? item.notBefore : null);
    }

    const details = detailsOf(hold);
    let unpaused = false;
    const pausedId = typeof details.pausedWorkflowId === 'string' ? details.pausedWorkflowId : null;
    if (details.pausedWorkflow === true && pausedId) {
      // Another open hold that paused the same workflow keeps it paused.
      const other = await tx.sendHold.findFirst({
        where: { id: { not: id }, memberId: hold.memberId, releasedAt: null, details: { path: ['pausedWorkflowId'], equals: pausedId } },
        select: { id: true },
      });
      if (!other) unpaused = (await tx.workflow.updateMany({ where: { id: pausedId, memberId: hold.memberId, paused: true }, data: { paused: false } })).count > 0;
    }
    const released = await tx.sendHold.update({
      where: { id },
      data: { releasedAt: now, releasedBy: actor.member.id, details: { ...details, releasedCount: items.length, unpausedWorkflow: unpaused } },
    });
    await emitToMember(hold.memberId, 'sending.hold', { holdId: id, status: 'released' }, tx);
    return { hold: (await present([released], tx))[0] };
  });
}
