/**
 * The send pipeline's claim (step 1 of ./pipeline.ts): in one transaction, every change conditional on `pending`, an
 * item that may go out now becomes `running` under this runner's id, its attempt counted and journalled; one that may
 * not is skipped, put back to its due time, or held (its mailbox not connected, or the blast-radius guard).
 *
 * Two ways to hold that transaction, one set of rules:
 * - the quick claim, for the item that goes out now (nearly every one): on a connection of the pool, three round
 *   trips of prepared statements: BEGIN with the guard's locks and the item's reads; the guard's reads
 *   (send-guard/reading.ts); the claim with COMMIT. Through Prisma the same claim was an interactive transaction of
 *   about ten statements, and Prisma's client was a fifth of the send's CPU (bench/README, "The send pipeline").
 * - the full claim, in a Prisma transaction, for everything else: a purged item failed, a retry not yet due put
 *   back, a hold. The quick claim rolls back and leaves these to it, which reads and decides again under its own
 *   locks; opening a hold (a notification, a paused workflow) is the guard's Prisma work.
 *
 * Both read the item and its mailbox with the same statements (`claimReads`) and answer through `claimAnswer`.
 */
import type pg from 'pg';
import type { Tx } from '../../../core/db';
import { db, pool } from '../../../core/db';
import { timeoutStatement } from '../../../core/db/prepared';
import { batchInPrisma, batchOnConnection, type BoundStatement } from '../../../core/db/statement-batch';
import { jobKeys } from '../../../core/jobs/catalogue';
import { enqueue } from '../../../core/jobs/enqueue';
import { emitToMember, realtimeNotification } from '../../../core/realtime/emit';
import type { OutboundMessage } from '../../../generated/prisma/client';
import { evaluateSendGuard, guardLimits, lockScopesOfItemStatements, readGuard } from '../../send-guard';
import {
  claimStatement,
  failPurgedPending,
  holdPendingByGuard,
  holdPendingForMailbox,
  journalHeld,
  outboundFromRow,
  outboundRowStatement,
  sendingMailboxStatement,
} from './repo';

export type ClaimResult = 'held' | 'deferred' | 'skipped';

export interface Claimed {
  item: OutboundMessage;
  attempt: number;
  journalId: string;
  mailbox: { id: string; provider: string; address: string; settings: unknown; credential: { id: string; dataEnc: string } | null };
  /** The member's display name, shown in From beside the mailbox's address. */
  fromName: string;
}

export type ClaimAnswer = { claimed: Claimed } | { result: ClaimResult };

/** The quick claim's bound on each of its statements (the guard's locks wait behind another claim of the mailbox). */
const quickClaimStatementTimeoutMs = 5_000;

export async function announce(tx: Tx, item: { id: string; memberId: string; mailboxId: string }, sendStatus: string): Promise<void> {
  await emitToMember(item.memberId, 'outbound.changed', { outboundId: item.id, mailboxId: item.mailboxId, sendStatus }, tx);
}

/**
 * What the item itself allows: nothing to do (gone, not pending, its review not allowing it, a draft not sent from
 * the review), its content purged, not due before an instant (the undo window, the next retry), or going now.
 */
function readiness(item: OutboundMessage | null, now: Date): 'skip' | 'purged' | 'ready' | { dueAt: Date } {
  if (!item) return 'skip';
  if (item.sendStatus !== 'pending' || (item.reviewStatus !== 'none' && item.reviewStatus !== 'sent')) return 'skip';
  // A draft goes out only once a member sent it from the review.
  if (item.mode === 'draft' && item.reviewStatus !== 'sent') return 'skip';
  // Nothing left to send (purged by retention before it went out): never an empty message.
  if (item.contentPurgedAt !== null) return 'purged';
  const dueAt = [item.notBefore, item.nextAttemptAt].filter((at): at is Date => at !== null && at.getTime() > now.getTime()).sort((a, b) => b.getTime() - a.getTime())[0];
  return dueAt ? { dueAt } : 'ready';
}

export async function claim(outboundId: string, runnerId: string): Promise<ClaimAnswer> {
  const quick = await quickClaim(outboundId, runnerId);
  return quick ?? fullClaim(outboundId, runnerId);
}

/** What both claims read: the item's row and the mailbox it goes out from (`claimReadsFrom` reads the answers). */
function claimReads(outboundId: string): BoundStatement[] {
  return [
    { statement: outboundRowStatement, values: [outboundId] },
    { statement: sendingMailboxStatement, values: [outboundId] },
  ];
}

function claimReadsFrom([itemRows, mailboxRows]: Record<string, unknown>[][]): { item: OutboundMessage | null; mailbox: Record<string, unknown> | undefined } {
  return { item: itemRows?.[0] ? outboundFromRow(itemRows[0]) : null, mailbox: mailboxRows?.[0] };
}

/** A mailbox a send may go out from (`error` is a sync trouble; the send finds out for itself). */
function sendable(mailbox: Record<string, unknown> | undefined): mailbox is Record<string, unknown> {
  return mailbox !== undefined && (mailbox.status === 'active' || mailbox.status === 'error');
}

/** The claim's answer from its statement's row (none: another claim took the item first). */
function claimAnswer(item: OutboundMessage, mailbox: Record<string, unknown>, claimed: Record<string, unknown>[]): ClaimAnswer {
  const row = claimed[0];
  if (!row) return { result: 'skipped' };
  const credentialId = mailbox.credential_id as string | null;
  return {
    claimed: {
      item,
      attempt: Number(row.attempt),
      journalId: row.id as string,
      mailbox: {
        id: mailbox.id as string,
        provider: mailbox.provider as string,
        address: mailbox.address as string,
        settings: mailbox.settings,
        credential: credentialId ? { id: credentialId, dataEnc: mailbox.credential_data_enc as string } : null,
      },
      fromName: mailbox.member_name as string,
    },
  };
}

/** The claim's statement for this item, its announcement of `running` as its parameters. */
function claimValues(item: OutboundMessage, runnerId: string): [string, string, string, string] {
  const notice = realtimeNotification(item.memberId, 'outbound.changed', { outboundId: item.id, mailboxId: item.mailboxId, sendStatus: 'running' });
  return [item.id, runnerId, notice.channel, notice.body];
}

/** The quick claim; null when the item needs the full claim (anything but going out now or skipping). */
async function quickClaim(outboundId: string, runnerId: string): Promise<ClaimAnswer | null> {
  const client = await pool().connect();
  let failure: Error | undefined;
  try {
    const answers = await batchOnConnection(client, { before: ['BEGIN', timeoutStatement(quickClaimStatementTimeoutMs)] })([
      ...lockScopesOfItemStatements.map((statement) => ({ statement, values: [outboundId] })),
      ...claimReads(outboundId),
    ]);
    const { item, mailbox } = claimReadsFrom(answers.slice(lockScopesOfItemStatements.length));
    const ready = readiness(item, new Date());
    if (ready === 'skip') return await rolledBack(client, { result: 'skipped' });
    if (!item || ready !== 'ready' || !sendable(mailbox)) return await rolledBack(client, null);

    const reading = await readGuard(item, guardLimits(), batchOnConnection(client));
    if (reading.joinableHoldId || reading.trip) return await rolledBack(client, null);

    const [claimed] = await batchOnConnection(client, { after: ['COMMIT'] })([{ statement: claimStatement, values: claimValues(item, runnerId) }]);
    return claimAnswer(item, mailbox, claimed);
  } catch (error) {
    // The connection is dropped rather than given back mid-transaction: its server process rolls back as it ends.
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(failure);
  }
}

async function rolledBack<T>(client: pg.PoolClient, answer: T): Promise<T> {
  await client.query('ROLLBACK');
  return answer;
}

async function fullClaim(outboundId: string, runnerId: string): Promise<ClaimAnswer> {
  return db().$transaction(async (tx) => {
    // Every change below is conditional on `pending`: of two jobs claiming at once, one changes the row.
    const { item, mailbox } = claimReadsFrom(await batchInPrisma(tx)(claimReads(outboundId)));
    const ready = readiness(item, new Date());
    if (!item || ready === 'skip') return { result: 'skipped' as const };
    if (ready === 'purged') {
      await failPurgedPending(tx, item.id);
      await announce(tx, item, 'failed');
      return { result: 'skipped' as const };
    }
    if (ready !== 'ready') {
      await enqueue('mail.send', { outboundId }, { jobKey: jobKeys.send(outboundId), runAt: ready.dueAt }, tx);
      return { result: 'deferred' as const };
    }
    if (!sendable(mailbox)) {
      const held = await holdPendingForMailbox(tx, item.id);
      if (held.count === 0) return { result: 'skipped' as const };
      await journalHeld(tx, item, 'mailbox_not_active');
      await announce(tx, item, 'held');
      return { result: 'held' as const };
    }
    const verdict = await evaluateSendGuard(item, tx);
    if (verdict.holdId) {
      const held = await holdPendingByGuard(tx, item.id, verdict.holdId);
      if (held.count === 0) return { result: 'skipped' as const };
      await journalHeld(tx, item, 'guard');
      await announce(tx, item, 'held');
      return { result: 'held' as const };
    }
    // The claim, its journal row and its announcement in one statement.
    const [claimed] = await batchInPrisma(tx)([{ statement: claimStatement, values: claimValues(item, runnerId) }]);
    return claimAnswer(item, mailbox, claimed);
  });
}
