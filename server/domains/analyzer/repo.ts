/**
 * The analyzer's own queries: its analyses (`mailbox_analyses`), and the two facts it keeps of a mailbox (that the
 * member owns it; when it was last analysed). The statistics and sender groups are ./run/repo-statistics.ts.
 */
import type { Prisma } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';

/** The member's mailbox (its id), or null. */
export function findOwnedMailbox(memberId: string, id: string) {
  return db().mailbox.findFirst({ where: { id, memberId }, select: { id: true } });
}

/** Concurrent starts of one mailbox serialise on this transaction-scoped advisory lock. */
export async function lockMailboxAnalyses(tx: Tx, mailboxId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`analyzer:${mailboxId}`}))`;
}

/** The newest analysis of the mailbox created since `since` that has not failed. */
export function findLiveAnalysisSince(tx: Tx, mailboxId: string, since: Date) {
  return tx.mailboxAnalysis.findFirst({
    where: { mailboxId, createdAt: { gte: since }, status: { not: 'failed' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
}

export function insertAnalysis(tx: Tx, data: Prisma.MailboxAnalysisUncheckedCreateInput) {
  return tx.mailboxAnalysis.create({ data });
}

/** The mailbox's latest analysis, of any status. */
export function findLatestAnalysis(mailboxId: string) {
  return db().mailboxAnalysis.findFirst({ where: { mailboxId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
}

export function findAnalysis(id: string) {
  return db().mailboxAnalysis.findUnique({ where: { id } });
}

/** Writes the analysis row (progress, body, status…). Returns the statement un-awaited, so it can join a batch. */
export function updateAnalysis(id: string, data: Prisma.MailboxAnalysisUpdateInput) {
  return db().mailboxAnalysis.update({ where: { id }, data });
}

/** The mailbox was analysed at `at`. Returns the statement un-awaited, so it can join a batch. */
export function markMailboxAnalyzed(mailboxId: string, at: Date) {
  return db().mailbox.update({ where: { id: mailboxId }, data: { analyzedAt: at } });
}

/**
 * How many of the mailbox's rows its initial sync listed from their header and the body pass has not filled yet
 * (read through the partial index that holds only them), when the mailbox is active, so that the pass goes on.
 */
export async function bodiesStillPending(mailboxId: string): Promise<number> {
  const [row] = await db().$queryRaw<{ pending: number }[]>`
    SELECT count(*)::int AS pending FROM mail_messages m JOIN mailboxes b ON b.id = m.mailbox_id
     WHERE m.mailbox_id = ${mailboxId}::uuid AND m.body_pending AND b.status = 'active'`;
  return row?.pending ?? 0;
}
