/**
 * The send pipeline's queries (./pipeline.ts, ./sweeper.ts). Every change to an item is conditional on the status
 * the caller read (`pending`, or `running` under its runner id): of two writers at once, one changes the row. The
 * claim and the record of a delivery are single statements (row, journal and announcement together).
 */
import type { Tx } from '../../../core/db';
import { db, pool } from '../../../core/db';
import { prepared } from '../../../core/db/prepared';
import type { OutboundMessage } from '../../../generated/prisma/client';

type Item = { id: string; memberId: string; mailboxId: string };

/** The item's row, as `outboundFromRow` reads it (both claims, ./claim.ts). */
export const outboundRowStatement = { text: 'SELECT * FROM outbound_messages WHERE id = $1::uuid', parameterTypes: ['uuid'] } as const;

/** A column's name as Prisma's field (`send_attempts` → `sendAttempts`): every column of the table is mapped so. */
const fieldOf = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * An `outbound_messages` row read by `pg` as Prisma's client answers it: pg already reads its times as Dates, its
 * lists as arrays and its JSON as values; only the names differ. A test compares the two readings of one row.
 */
export function outboundFromRow(row: Record<string, unknown>): OutboundMessage {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [fieldOf(column), value])) as unknown as OutboundMessage;
}

/** The mailbox the item goes out from, with what its transport needs (its secret sealed) and its member's name (both claims). */
export const sendingMailboxStatement = {
  text: `SELECT m.id, m.provider, m.address, m.status, m.settings, c.id AS credential_id, c.data_enc AS credential_data_enc, mem.name AS member_name
           FROM outbound_messages o
           JOIN mailboxes m ON m.id = o.mailbox_id
           JOIN members mem ON mem.id = m.member_id
           LEFT JOIN credentials c ON c.id = m.credential_id
          WHERE o.id = $1::uuid`,
  parameterTypes: ['uuid'],
} as const;

/** A pending item whose content retention purged: failed (never an empty message). */
export function failPurgedPending(tx: Tx, id: string) {
  return tx.outboundMessage.updateMany({
    where: { id, sendStatus: 'pending' },
    data: { sendStatus: 'failed', sendErrorKind: 'internal', sendErrorMessage: 'The content of this message is no longer available.' },
  });
}

/** A pending item held until its mailbox is connected again; answers how many changed (0: no longer pending). */
export function holdPendingForMailbox(tx: Tx, id: string) {
  return tx.outboundMessage.updateMany({
    where: { id, sendStatus: 'pending' },
    data: { sendStatus: 'held', sendErrorKind: 'mailbox_not_active', sendErrorMessage: 'The mailbox is not connected; the message goes out once it is connected again.' },
  });
}

/** A pending item held by the blast-radius guard's hold; answers how many changed (0: no longer pending). */
export function holdPendingByGuard(tx: Tx, id: string, holdId: string) {
  return tx.outboundMessage.updateMany({ where: { id, sendStatus: 'pending' }, data: { sendStatus: 'held', holdId, sendErrorKind: null, sendErrorMessage: null } });
}

/** The journal's row for a hold. */
export function journalHeld(tx: Tx, item: Item, reason: 'mailbox_not_active' | 'guard') {
  return tx.sendingJournalEntry.create({ data: { memberId: item.memberId, outboundId: item.id, mailboxId: item.mailboxId, event: 'held', reason } });
}

/**
 * The claim: a pending item whose review allows it becomes `running` under `runnerId` ($2) with its attempt counted,
 * its journal row is written and the notice ($3 channel, $4 body) announced, in one statement. No row: another claim
 * took it first. Run by both claims (./claim.ts).
 */
export const claimStatement = {
  text: `WITH claimed AS (
        UPDATE outbound_messages SET send_status = 'running', send_attempts = send_attempts + 1, send_runner_id = $2,
               send_started_at = now(), send_error_kind = NULL, send_error_message = NULL, updated_at = now()
         WHERE id = $1::uuid AND send_status = 'pending' AND review_status IN ('none', 'sent')
        RETURNING id, member_id, mailbox_id, send_attempts, send_started_at),
      entry AS (
        INSERT INTO sending_journal (id, member_id, outbound_id, mailbox_id, event, attempt, result, runner_id, started_at)
        SELECT gen_random_uuid(), member_id, id, mailbox_id, 'attempt', send_attempts, 'running', $2, send_started_at FROM claimed
        RETURNING id, attempt)
      SELECT entry.id, entry.attempt, pg_notify($3, $4) IS NULL AS notified FROM entry`,
  parameterTypes: ['uuid', 'text', 'text', 'text'],
} as const;

/**
 * The item `done` with its journal row and `notice` announced, in one statement, if the attempt is still this
 * runner's (or a sweeper gave it up as `unknown`: the send is known to be done). A named statement on the pool: every
 * send pays it, and through Prisma's client it cost more than its work in PostgreSQL.
 */
const markDoneStatement = prepared(`
    WITH item AS (
      UPDATE outbound_messages SET send_status = 'done', provider_message_id = $5, sent_at = now(),
             send_error_kind = NULL, send_error_message = $6, next_attempt_at = NULL, send_runner_id = NULL, updated_at = now()
       WHERE id = $1::uuid AND send_attempts = $2
         AND ((send_status = 'running' AND send_runner_id = $4) OR send_status = 'unknown')
      RETURNING id),
    entry AS (
      UPDATE sending_journal SET result = 'done', provider_message_id = $5, finished_at = now(), error_kind = NULL, error_message = $6
       WHERE id = $3::uuid AND EXISTS (SELECT 1 FROM item)
      RETURNING id)
    SELECT pg_notify($7, $8) IS NULL AS notified FROM item, entry`);

export async function markDone(
  claim: { id: string; attempt: number; journalId: string; runnerId: string },
  providerMessageId: string | null,
  warning: string | null,
  notice: { channel: string; body: string },
): Promise<void> {
  const { id, attempt, journalId, runnerId } = claim;
  await pool().query({ ...markDoneStatement, values: [id, attempt, journalId, runnerId, providerMessageId, warning, notice.channel, notice.body] });
}

/** A warning found after the send was recorded, on the done item. */
export function setDoneWarning(tx: Tx, id: string, text: string | null) {
  return tx.outboundMessage.updateMany({ where: { id, sendStatus: 'done' }, data: { sendErrorMessage: text } });
}

export function setJournalErrorMessage(tx: Tx, journalId: string, text: string | null) {
  return tx.sendingJournalEntry.update({ where: { id: journalId }, data: { errorMessage: text } });
}

/**
 * A failed attempt recorded on the item if it is still this runner's: its next status, the error and the next
 * attempt's time; an attempt that does not count is given back. No row: the attempt is no longer this runner's.
 */
export function releaseFailedAttempt(
  tx: Tx,
  attemptOf: { id: string; runnerId: string; attempt: number },
  outcome: { status: 'pending' | 'failed' | 'unknown'; kind: string; message: string; nextAttemptAt: Date | null; countsAttempt: boolean },
) {
  const { id, runnerId, attempt } = attemptOf;
  const { status, nextAttemptAt, countsAttempt } = outcome;
  const failure = { kind: outcome.kind, message: outcome.message };
  return tx.$queryRaw<{ id: string }[]>`
      UPDATE outbound_messages SET send_status = ${status}, send_error_kind = ${failure.kind}, send_error_message = ${failure.message},
             next_attempt_at = ${nextAttemptAt}, send_runner_id = NULL,
             send_attempts = send_attempts - ${countsAttempt ? 0 : 1}, updated_at = now()
       WHERE id = ${id}::uuid AND send_status = 'running' AND send_runner_id = ${runnerId} AND send_attempts = ${attempt}
      RETURNING id`;
}

/** The journal's row of an attempt, closed. */
export function finishJournalAttempt(tx: Tx, journalId: string, data: { result: 'unknown' | 'failed'; errorKind: string; errorMessage: string }) {
  return tx.sendingJournalEntry.update({ where: { id: journalId }, data: { ...data, finishedAt: new Date() } });
}

// ----- the sweeper -----------------------------------------------------------------------------

/**
 * Running sends given up as `unknown` (`uncertain`): no start time, started over `staleRunningSecs` ago, or past
 * the grace with no live runner (heartbeat within `liveSecs`); at most `limit`, rows locked by another sweeper
 * skipped.
 */
export function markStaleRunningUnknown(
  tx: Tx,
  uncertain: string,
  timing: { staleRunningSecs: number; graceSecs: number; liveSecs: number },
  limit: number,
) {
  return tx.$queryRaw<{ id: string; member_id: string; mailbox_id: string; send_attempts: number }[]>`
      UPDATE outbound_messages o SET send_status = 'unknown', send_error_kind = 'uncertain', send_error_message = ${uncertain}, updated_at = now()
       WHERE o.id IN (
         SELECT c.id FROM outbound_messages c
          WHERE c.send_status = 'running'
            AND (c.send_started_at IS NULL
                 OR c.send_started_at < now() - make_interval(secs => ${timing.staleRunningSecs})
                 OR (c.send_started_at < now() - make_interval(secs => ${timing.graceSecs})
                     AND NOT EXISTS (SELECT 1 FROM runner_instances r WHERE r.id = c.send_runner_id
                                       AND r.heartbeat_at > now() - make_interval(secs => ${timing.liveSecs}))))
          LIMIT ${limit} FOR UPDATE SKIP LOCKED)
         AND o.send_status = 'running'
      RETURNING o.id, o.member_id, o.mailbox_id, o.send_attempts`;
}

/** The running journal rows of these items' attempts closed as `unknown`. */
export async function journalAttemptsUnknown(tx: Tx, outboundIds: string[], uncertain: string): Promise<void> {
  await tx.$executeRaw`
      UPDATE sending_journal SET result = 'unknown', error_kind = 'uncertain', error_message = ${uncertain}, finished_at = now()
       WHERE outbound_id = ANY(${outboundIds}::uuid[]) AND event = 'attempt' AND result = 'running'`;
}

/**
 * Pending sends that may go out but have no job (none, or one locked longer than `orphanLockSecs` by a runner
 * presumed dead), left alone for `lostJobAfterSecs` after a change; with the time each may run.
 */
export function findPendingWithoutJob(timing: { lostJobAfterSecs: number; orphanLockSecs: number }, limit: number) {
  return db().$queryRaw<{ id: string; run_at: Date | null }[]>`
    SELECT o.id, GREATEST(o.not_before, o.next_attempt_at) AS run_at FROM outbound_messages o
     WHERE o.send_status = 'pending' AND o.review_status IN ('none', 'sent') AND (o.mode <> 'draft' OR o.review_status = 'sent')
       AND o.content_purged_at IS NULL
       AND o.updated_at < now() - make_interval(secs => ${timing.lostJobAfterSecs})
       AND NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'mail-send:' || o.id::text
                         AND (j.locked_at IS NULL OR j.locked_at > now() - make_interval(secs => ${timing.orphanLockSecs})))
     LIMIT ${limit}`;
}
