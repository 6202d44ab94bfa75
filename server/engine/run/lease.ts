/**
 * An execution is advanced by one runner at a time, the one holding its lease. The lease is renewed
 * by a heartbeat; a runner that dies stops renewing, and the sweeper finds the expired lease within
 * seconds (not graphile-worker's hours-long lock expiry) and queues the execution again, whose next
 * advancer sees the attempt that was cut off.
 *
 * Working time (spec: only working time counts towards the run timeout) is the time a lease is held.
 */
import { Prisma } from '../../generated/prisma/client';
import { db, pool, type Tx } from '../../core/db';
import { executeText, preparedRoundTrip, type SqlPreparedStatement } from '../../core/db/prepared';
import { rememberMember, type MemberRow } from './actor';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import type { StepJournal } from './step-journal';
import { statusFilter } from './run-by-id';

export const leaseTtlMs = 15_000;
export const heartbeatEveryMs = 4_000;

export interface ClaimedExecution {
  id: string;
  memberId: string;
  workflowId: string;
  workflowVersionId: string;
  status: string;
  simulated: boolean;
  /** A simulated run that asked for real AI model calls. */
  callModels?: boolean;
  holdsSlot: boolean;
  mailboxId: string | null;
  messageId: string | null;
  triggerType: string | null;
  triggerNodeId: string | null;
  triggerData: unknown;
  parentExecutionId: string | null;
  parentStepId: string | null;
  startedBy: string | null;
  workingMs: number;
  timeoutMs: number;
  startedAt: Date | null;
  messageHeadline: unknown;
  wakeSeq: number;
  /**
   * Lease take-overs since an attempt of the run last ended on its own, this claim included: each is an
   * advancer that died (or stalled past its lease) while holding the run. Above zero the run is a
   * suspect: careful mode and isolation (interruptions.ts).
   */
  leaseTakeovers: number;
  /**
   * Whether the run had any step row when it was claimed, read by the claim's own statement: only the lease's holder
   * writes steps, so a run without any (every run's first advance, and a run admitted by another run's end before
   * anything advanced it) needs no read of its steps.
   */
  hasSteps: boolean;
  /** The run's steps as the advance holding the lease keeps them (step-journal.ts); absent outside an advance. */
  journal?: StepJournal;
}

/**
 * Takes the lease (for one advance: `owner` is unique per call, so two advances never share it) of a queued or running execution whose lease is free or expired (or already ours).
 * Taking over an expired lease that still names an owner counts a take-over in the same statement
 * (a clean release clears the owner, so only an advancer that died or stalled leaves one): the
 * crash-loop bound reads it at no extra write.
 * A waiting execution whose wait has ended, or with a decided step, is moved back to queued and claimed. Returns null when the
 * execution is finished, waiting, or advanced by another runner right now.
 */
export async function claimExecution(executionId: string, owner: string): Promise<ClaimedExecution | null> {
  let rows = await claimRunnable(executionId, owner);
  // Not queued nor running: a waiting run whose wait ended (or that received a decision) is queued and
  // claimed; checked only when the claim found nothing, so an advance costs one statement.
  if (rows.length === 0 && (await requeueEndedWait(executionId)) > 0) rows = await claimRunnable(executionId, owner);
  const row = rows[0];
  if (!row) return null;
  const claimed: ClaimedExecution = {
    id: row.id as string,
    memberId: row.member_id as string,
    workflowId: row.workflow_id as string,
    workflowVersionId: row.workflow_version_id as string,
    status: row.status as string,
    simulated: row.simulated as boolean,
    callModels: row.call_models === true,
    holdsSlot: row.holds_slot as boolean,
    mailboxId: (row.mailbox_id as string | null) ?? null,
    messageId: (row.message_id as string | null) ?? null,
    triggerType: (row.trigger_type as string | null) ?? null,
    triggerNodeId: (row.trigger_node_id as string | null) ?? null,
    triggerData: row.trigger_data ?? null,
    parentExecutionId: (row.parent_execution_id as string | null) ?? null,
    parentStepId: (row.parent_step_id as string | null) ?? null,
    startedBy: (row.started_by as string | null) ?? null,
    workingMs: Number(row.working_ms),
    timeoutMs: Number(row.timeout_ms),
    startedAt: (row.started_at as Date | null) ?? null,
    messageHeadline: row.message_headline ?? null,
    wakeSeq: Number(row.wake_seq),
    leaseTakeovers: Number(row.lease_takeovers),
    hasSteps: row.has_steps === true,
  };
  // The member the run acts as, read by the claim's own statement (actor.ts): no round trip of its own.
  const member = row.member as (Omit<MemberRow, 'createdAt'> & { createdAt: string }) | null;
  rememberMember(claimed, member ? { ...member, createdAt: new Date(member.createdAt) } : null);
  return claimed;
}

function requeueEndedWait(executionId: string): Promise<number> {
  return db().$executeRaw`
    UPDATE executions SET status = 'queued', wait_until = NULL, updated_at = now()
    WHERE id = ${executionId}::uuid AND ${Prisma.raw(statusFilter("status = 'waiting'"))}
      AND ((wait_until IS NOT NULL AND wait_until <= now())
        OR EXISTS (SELECT 1 FROM execution_steps s WHERE s.execution_id = executions.id AND s.status = 'waiting' AND s.decision IS NOT NULL))`;
}

/**
 * The claim, on the pool directly and prepared (core/db/prepared.ts): it is paid by every advance (issue 25 §1).
 * Its commit does not wait for the WAL flush (this transaction only, set in the same round trip): a database crash
 * that loses it leaves the run unclaimed, to be claimed again, and whatever the run does that must last (its effect
 * record before an outside effect, its end) is a durable commit after it, which flushes it first. A crash of the
 * runner loses nothing: the database has it. One flush fewer per advance: a WAL flush costs this machine's
 * PostgreSQL ≈ 0.5 ms of CPU (bench/README.md, "Durable where the state is").
 */
async function claimRunnable(executionId: string, owner: string): Promise<Record<string, unknown>[]> {
  const results = await preparedRoundTrip(pool(), [claimStatement], ([name]) => [
    `SELECT set_config('synchronous_commit', 'off', true)`,
    executeText(name ?? null, claimStatement, [executionId, owner, leaseTtlMs / 1000]),
  ]);
  return results[1]!.rows as Record<string, unknown>[];
}

const claimSql = `UPDATE executions SET lease_owner = $2, lease_until = now() + make_interval(secs => $3), updated_at = now(),
      lease_takeovers = lease_takeovers + (CASE WHEN lease_owner IS NOT NULL AND lease_until < now() THEN 1 ELSE 0 END)
    WHERE id = $1::uuid AND status IN ('queued', 'running')
      AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until < now())
    RETURNING id, member_id, workflow_id, workflow_version_id, status, simulated, holds_slot, mailbox_id, message_id,
      trigger_type, trigger_node_id, trigger_data, parent_execution_id, parent_step_id, started_by, working_ms,
      timeout_ms, started_at, message_headline, wake_seq, call_models, lease_takeovers,
      EXISTS (SELECT 1 FROM execution_steps s WHERE s.execution_id = executions.id) AS has_steps,
      (SELECT json_build_object('id', m.id, 'email', m.email, 'name', m.name, 'role', m.role::text, 'status', m.status::text, 'createdAt', m.created_at)
         FROM members m WHERE m.id = executions.member_id) AS member`;

const claimStatement: SqlPreparedStatement = { text: claimSql, parameterTypes: ['uuid', 'text', 'float8'] };

/** Renews the lease; false when it was lost (the execution was taken over or finished elsewhere). */
export async function renewLease(executionId: string, owner: string): Promise<boolean> {
  const count = await db().$executeRaw`
    UPDATE executions SET lease_until = now() + make_interval(secs => ${leaseTtlMs / 1000})
    WHERE id = ${executionId}::uuid AND lease_owner = ${owner}`;
  return count > 0;
}

/**
 * Gives the lease back and adds the time it was held to the working time. `endStreak`: the advance
 * drove the run and leaves no cut-off step to retry, so its crash streak ends (interruptions.ts), in
 * the same statement. Returns true when someone woke the execution while we held it (its `wake_seq`
 * moved): the caller must look again.
 */
export async function releaseLease(executionId: string, owner: string, heldMs: number, claimedWakeSeq: number, endStreak = false): Promise<boolean> {
  const rows = await db().$queryRaw<{ wake_seq: number }[]>`
    UPDATE executions SET lease_owner = NULL, lease_until = NULL, working_ms = working_ms + ${Math.max(0, Math.round(heldMs))}, updated_at = now(),
      lease_takeovers = CASE WHEN ${endStreak} THEN 0 ELSE lease_takeovers END
    WHERE id = ${executionId}::uuid AND lease_owner = ${owner}
    RETURNING wake_seq`;
  return rows.length > 0 && Number(rows[0].wake_seq) !== claimedWakeSeq;
}

/**
 * An attempt of the run ended on its own: its crash streak (`lease_takeovers`, see interruptions.ts)
 * is over. One write, for runs that had a streak only.
 */
export async function endCrashStreak(execution: Pick<ClaimedExecution, 'id' | 'leaseTakeovers'>): Promise<void> {
  if (execution.leaseTakeovers === 0) return;
  await db().$executeRaw`UPDATE executions SET lease_takeovers = 0 WHERE id = ${execution.id}::uuid`;
  execution.leaseTakeovers = 0;
}

/** Asks for the execution to be looked at again, whoever holds it now (see `releaseLease`). */
export async function wakeExecution(executionId: string, tx: Pick<Tx, '$executeRaw'> = db()): Promise<void> {
  await tx.$executeRaw`UPDATE executions SET wake_seq = wake_seq + 1 WHERE id = ${executionId}::uuid`;
  await enqueue('execution.advance', { executionId }, { jobKey: jobKeys.execution(executionId) }, tx);
}
