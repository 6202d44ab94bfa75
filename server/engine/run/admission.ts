/**
 * Slots (spec, States: Execution): a queued live run moves to running when its workflow has fewer
 * running slot-holding runs than its concurrency and the instance fewer than its cap, taken in order
 * of arrival. Test runs, sub-workflow runs and loop iterations hold no slot; a waiting run gives its
 * slot back and takes one again, ahead of later arrivals, when it resumes.
 *
 * Admission is done for the workflow as a whole, under one transaction-level advisory lock (two
 * runners never both take the last slot): whoever admits, admits the oldest queued runs up to the free
 * slots, not itself first. Each admitted run is woken (see lease.ts: its advance, wherever it is, goes
 * on), and given a job only when it has none, so a burst of arrivals does not churn jobs.
 *
 * One run at a time per key (issue 24 §3, contract/one-run-at-a-time.ts): a run with a `serial_key` is
 * admitted only when it is the oldest unfinished run of its workflow and key (queued, running or
 * waiting), so the runs of one key go one after the other in arrival order, the key held through a
 * wait (a waiting run gives its slot back, not its key), while other keys take the free slots. A run
 * whose burst window is open (`coalesce_until`) is not admitted before it closes. Both are read under
 * the admission lock, so two runners never admit two runs of one key.
 */
import { Prisma } from '../../generated/prisma/client';
import { db, pool, type Tx } from '../../core/db';
import { Placeholder, inlinedSql } from '../../core/db/inline-sql';
import { executeText, prepared, preparedRoundTrip, type SqlPreparedStatement } from '../../core/db/prepared';
import { log } from '../../core/log';
import { emitToMember, realtimeNotification } from '../../core/realtime/emit';
import { effectiveLimits, instanceCeilings } from '../contract/limits';
import { statusFilter } from './run-by-id';

/** The instance-wide advisory lock admissions take (exclusive) and freed slots' questions read under (shared). */
export const admissionLock = 80_417_001;
/** The longest an admission outside a caller's transaction waits for the lock and runs (ms); then it fails and is retried. */
const admissionTimeoutMs = 10_000;

/** Whether an earlier unfinished run of the same workflow holds the key of the run aliased `e`. */
export const keyHeldByEarlierRun = Prisma.sql`(e.serial_key IS NOT NULL AND EXISTS (
    SELECT 1 FROM executions k
     WHERE k.workflow_id = e.workflow_id AND k.serial_key = e.serial_key
       AND k.seq < e.seq AND k.status IN ('queued', 'running', 'waiting')))`;

/**
 * Whether the queued run aliased `e` may be admitted now as far as its key and burst window go (slots
 * aside). The sweeper leaves out runs whose key is held: the run ahead of them admits them as it ends.
 */
const admissibleByKey = Prisma.sql`(e.coalesce_until IS NULL OR e.coalesce_until <= clock_timestamp()) AND NOT ${keyHeldByEarlierRun}`;

type AdmissionTx = Pick<Tx, '$queryRaw' | '$executeRaw' | 'workflow'>;

/**
 * Moves a queued execution, just claimed (its lease taken by the caller, lease.ts), to running when its
 * turn and a slot have come; true when it runs now. The claim answered the run's slot and workflow, so
 * nothing is read again before the lock. One round trip (admissionRoundTrip) for a slot-holding run.
 */
export async function admit(run: { id: string; holdsSlot: boolean; workflowId: string; memberId: string; wakeSeq: number }): Promise<boolean> {
  if (!run.holdsSlot) return db().$transaction(async (tx) => (await markRunning(tx, [{ id: run.id, member_id: run.memberId, workflow_id: run.workflowId }])).length > 0);
  // Not admitted by this admission: read again under the lock (markSelfToPrepare).
  const { admitted, after } = await admissionRoundTrip(run.workflowId, run.id, true);
  if (admitted.includes(run.id)) return true;
  const now = after[0] as { status: string; wake_seq: number | string } | undefined;
  if (now?.status !== 'running') return false;
  run.wakeSeq = Number(now.wake_seq);
  return true;
}

/**
 * Admits the oldest queued slot-holding runs of a workflow into its free slots (and, when a run of
 * another workflow was held back by the instance cap, that one too), in the caller's transaction.
 * Called when a run arrives and whenever a slot frees (a finish, a wait). Returns the admitted ids.
 *
 * Two statements whatever the number of runs (issue 25 §1: an admission is paid on every arrival
 * and every finish): the lock, and admissionStatement.
 */
export async function admitQueued(workflowId: string, tx: AdmissionTx, self?: string): Promise<string[]> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${admissionLock})`;
  const [result] = await tx.$queryRaw<AdmissionRow[]>(admissionStatement({ workflowId, self: self ?? null, ...slotLimits() }));
  return result.admitted.map((run) => run.id);
}

/**
 * A run the webhook started waiting, behind runs of its workflow that wait for a slot (start.ts, no job of its own),
 * looks once more for a free slot, in a transaction begun after its commit: an end that freed a slot before that
 * commit may have asked whether anyone waits (slotAwaited) before the run showed; if so, this look sees the slot,
 * and otherwise that end's question saw the run. Admits under the lock when a slot is free (in arrival order: the
 * runs ahead of it first). A failure here leaves a started run waiting, which the sweeper's admission for its
 * workflow takes within seconds (sweeper.ts): the caller, which answers that the run started, is not failed for it.
 */
export async function admitIfSlotFreed(workflowId: string, runId: string): Promise<void> {
  try {
    const { defaultLimit, instanceCap } = slotLimits();
    const { rows } = await pool().query<{ free: number | string }>({ ...prepared(lookAgainSql), values: [runId, workflowId, defaultLimit, instanceCap] });
    if (rows[0] && Number(rows[0].free) > 0) await admissionRoundTrip(workflowId, undefined);
  } catch (error) {
    log.warn({ err: error, workflowId, executionId: runId }, 'no admission after a start behind waiting runs; the sweep admits for the workflow');
  }
}

/** The free slots of the workflow $2 (its own, at most the instance's), as the admission's `room` counts them. */
const freeSlotsSql = `least(
    coalesce((SELECT max_concurrency FROM workflows WHERE id = $2::uuid), $3::int)
      - (SELECT count(*) FROM executions WHERE workflow_id = $2::uuid AND status = 'running' AND holds_slot),
    $4::int - (SELECT count(*) FROM executions WHERE status = 'running' AND holds_slot))`;
/** The free slots for a run ($1) that still waits; no row once it was admitted (or cancelled) meanwhile. */
const lookAgainSql = `SELECT ${freeSlotsSql} AS free FROM executions WHERE id = $1::uuid AND ${statusFilter("status = 'queued'")} AND awaits_slot`;

/**
 * admitQueued in a transaction of its own, for a slot freed outside any transaction (a run's end or wait,
 * finish.ts), and only when a run waits for the slot (slotAwaited, a round trip under the lock in shared mode:
 * most ends stop there). The lock and the admission go as one simple-protocol query, which PostgreSQL runs as
 * one implicit transaction, each statement with a snapshot of its own: the admission sees every admission that
 * committed while it waited for the lock. The instance-wide lock is then held for the statements' execution, not
 * across an interactive transaction's round trips, each waiting for the runner's event loop (32 ms of lock wait
 * per admission at 20 runs in flight, issue 25 §1). Its commit does not wait for the WAL flush
 * (`synchronous_commit` off for this transaction): a database crash that loses it leaves the runs queued without a
 * job, which the sweeper gives one again, and any later durable commit (a step of an admitted run) flushes it first.
 */
export async function admitQueuedAlone(workflowId: string): Promise<string[]> {
  if (!(await slotAwaited())) return [];
  return (await admissionRoundTrip(workflowId, undefined)).admitted;
}

/**
 * Whether a freed slot has anyone to admit: a queued slot-holding run whose own admission found no slot (or its key
 * held, its burst window open) and let it wait (`awaits_slot`, set under the admission lock by markSelfToPrepare).
 * A queued run whose own admission is still to come needs no one: that admission reads this slot free, the slot's
 * end having committed before. One whose admission is under way may not have seen it; so this reads after taking the
 * admission lock in shared mode, which waits for that admission (exclusive) to commit and its `awaits_slot` to show,
 * and which ends do not wait for among themselves. When nobody waits (a load below the slots, the common case) a
 * run's end so takes no exclusive lock and counts no runs: every end of the engine bench did, 9.8 ms of lock wait
 * each on average (issue 25 §1). A queued run that lost its job before its own admission is the sweeper's, as
 * before.
 */
async function slotAwaited(): Promise<boolean> {
  const results = await preparedRoundTrip(
    pool(),
    [slotAwaitedToPrepare],
    ([awaited]) => [`SELECT pg_advisory_xact_lock_shared(${admissionLock})`, executeText(awaited ?? null, slotAwaitedToPrepare, [])],
    { timeoutMs: admissionTimeoutMs },
  );
  const [row] = results[1].rows as { awaited: boolean }[];
  return row?.awaited === true;
}

/**
 * A run waiting for a slot: queued, slot-holding, its own admission found none (`awaits_slot`). Exactly the predicate
 * of `executions_awaiting_slot_idx` (keyed by workflow), so every look-up written with it reads that index alone.
 */
export const waitingForSlotSql = `status = 'queued' AND holds_slot AND awaits_slot`;

/** The question itself; its partial index (`executions_awaiting_slot_idx`) holds only the runs that wait. */
export const slotAwaitedSql = `SELECT EXISTS (SELECT 1 FROM executions WHERE ${waitingForSlotSql}) AS awaited`;
const slotAwaitedToPrepare: SqlPreparedStatement = { text: slotAwaitedSql, parameterTypes: [] };

/**
 * The lock, the admission and (for a run admitting itself, `markSelf`) what became of that run, in one round trip;
 * see admitQueuedAlone. The admission and the mark are prepared statements (PREPARE once per connection, then
 * EXECUTE): planned on every call, the admission's statement cost 2.1 ms of PostgreSQL's CPU, planned under the lock.
 */
async function admissionRoundTrip(workflowId: string, self: string | undefined, markSelf = false): Promise<{ admitted: string[]; after: unknown[] }> {
  const toPrepare = markSelf ? [admissionToPrepare(), markSelfToPrepare] : [admissionToPrepare()];
  // Bounded as an interactive transaction's timeout bounded the lock wait and the admission (a statement of a
  // simple-protocol query is timed alone); the commit does not wait for the WAL (this transaction only).
  const results = await preparedRoundTrip(
    pool(),
    toPrepare,
    ([admission, mark]) => [
      `SELECT set_config('synchronous_commit', 'off', true)`,
      `SELECT pg_advisory_xact_lock(${admissionLock})`,
      executeText(admission ?? null, toPrepare[0], admissionParameters({ workflowId, self: self ?? null, ...slotLimits() })),
      ...(markSelf ? [executeText(mark ?? null, markSelfToPrepare, [self ?? null])] : []),
    ],
    { timeoutMs: admissionTimeoutMs },
  );
  const [row] = results[2].rows as AdmissionRow[];
  return { admitted: row.admitted.map((run) => run.id), after: markSelf ? results[3].rows : [] };
}

/** What an admission is given: the workflow, the run admitting itself (or null) and the slot limits of the moment. */
interface AdmissionParameters<Value = never> {
  workflowId: string | Value;
  self: string | null | Value;
  defaultLimit: number | Value;
  instanceCap: number | Value;
}

/** The configured limits (read at each admission: they are configuration, and tests change them). */
function slotLimits(): Pick<AdmissionParameters, 'defaultLimit' | 'instanceCap'> {
  return { defaultLimit: effectiveLimits({ maxConcurrency: null, executionTimeoutMs: null }).maxConcurrency, instanceCap: instanceCeilings().instanceConcurrency };
}

/** The admission's parameters in the prepared statement's order. */
function admissionParameters(parameters: AdmissionParameters): unknown[] {
  return [parameters.workflowId, parameters.self, parameters.defaultLimit, parameters.instanceCap];
}

/** The admission to prepare, its parameters as placeholders in admissionParameters' order; built once per process. */
let admissionPrepared: SqlPreparedStatement | null = null;
function admissionToPrepare(): SqlPreparedStatement {
  if (!admissionPrepared) {
    const [workflowId, self, defaultLimit, instanceCap] = [1, 2, 3, 4].map((position) => new Placeholder(position));
    admissionPrepared = { text: inlinedSql(admissionStatement({ workflowId, self, defaultLimit, instanceCap })), parameterTypes: ['uuid', 'uuid', 'int', 'int'] };
  }
  return admissionPrepared;
}

/**
 * After a run's own admission, under the lock: another admission may have taken it in while we waited for the lock,
 * or it was cancelled, so it is read again. Taken in, it was woken for this advance (its wake_seq moved, no job
 * given): the advance goes on from here, and takes the new wake_seq as its own so it does not look again for that
 * wake-up. Still queued, it is let go waiting for a slot (`awaits_slot`): whoever admits it later gives it a job.
 * Admitted by this admission, it is running with `awaits_slot` false already: the statement writes nothing then.
 */
const markSelfToPrepare: SqlPreparedStatement = {
  text: `WITH marked AS (
      UPDATE executions SET awaits_slot = (status = 'queued')
       WHERE id = $1 AND awaits_slot IS DISTINCT FROM (status = 'queued'))
    SELECT status::text AS status, wake_seq FROM executions WHERE id = $1`,
  parameterTypes: ['uuid'],
};

/**
 * Whether a slot-holding run of a workflow other than this one waits for a slot (its own admission found none, or
 * its key or burst window held it: `awaits_slot`). Two descents of `executions_awaiting_slot_idx` (a workflow id
 * below this one, one above), whatever this workflow's backlog: in a burst at the workflow's default 10 slots (the
 * instance's cap 100), every arrival's and every end's admission walked the workflow's whole backlog of queued runs
 * to find no other (issue 25 §1: 49-63 runs/s finished during the burst, 12 ms of PostgreSQL's CPU per run; 83-88
 * runs/s and 8.4-9.0 ms with this). A queued run of another workflow that does not wait yet has its own admission
 * still to come, which reads the freed slot.
 */
export function awaitedElsewhere(workflowId: string | Placeholder): Prisma.Sql {
  const waiting = Prisma.raw(waitingForSlotSql);
  return Prisma.sql`(EXISTS (SELECT 1 FROM executions WHERE ${waiting} AND workflow_id < ${workflowId}::uuid)
                  OR EXISTS (SELECT 1 FROM executions WHERE ${waiting} AND workflow_id > ${workflowId}::uuid))`;
}

interface AdmissionRow {
  admitted: { id: string; member_id: string; workflow_id: string }[];
}

/**
 * The admission itself, under the lock: one statement that counts the slots, moves the admitted runs to running,
 * wakes them (and the other workflow's run), gives a job to those without one waiting and tells the members'
 * browsers (`execution.status` running, from `runningNotice`).
 */
function admissionStatement({ workflowId, self, defaultLimit, instanceCap }: AdmissionParameters<Placeholder>): Prisma.Sql {
  const notice = runningNotice();
  return Prisma.sql`
    WITH room AS (
      SELECT coalesce((SELECT max_concurrency FROM workflows WHERE id = ${workflowId}::uuid), ${defaultLimit}::int)
               - (SELECT count(*) FROM executions WHERE workflow_id = ${workflowId}::uuid AND status = 'running' AND holds_slot) AS workflow_free,
             ${instanceCap}::int - (SELECT count(*) FROM executions WHERE status = 'running' AND holds_slot) AS instance_free
    ), candidates AS (
      SELECT e.id, e.awaits_slot FROM executions e
       WHERE e.workflow_id = ${workflowId}::uuid AND e.status = 'queued' AND e.holds_slot AND ${admissibleByKey}
       ORDER BY e.seq LIMIT (SELECT greatest(0, least(workflow_free, instance_free)) FROM room)
    ), moved AS (
      UPDATE executions x SET status = 'running', started_at = coalesce(x.started_at, clock_timestamp()), updated_at = now(),
             wake_seq = x.wake_seq + (CASE WHEN x.id = ${self}::uuid THEN 0 ELSE 1 END), awaits_slot = false
        FROM candidates c
       WHERE x.id = c.id AND x.status = 'queued' AND (x.coalesce_until IS NULL OR x.coalesce_until <= clock_timestamp())
      RETURNING x.id, x.member_id, x.workflow_id, (x.lease_owner IS NOT NULL AND x.lease_until > now()) AS leased, c.awaits_slot AS awaits
    ), other AS (
      -- The oldest run of another workflow may have waited for the instance cap rather than its own slots. Looked
      -- for only when a run of another workflow waits at all (awaitedElsewhere): the walk in arrival order passes
      -- over every queued run of this workflow, its whole backlog when its own slots are full.
      SELECT e.id, e.awaits_slot FROM executions e
       WHERE (SELECT instance_free FROM room) > (SELECT count(*) FROM candidates) AND ${awaitedElsewhere(workflowId)}
         AND e.status = 'queued' AND e.holds_slot AND e.workflow_id <> ${workflowId}::uuid AND ${admissibleByKey}
       ORDER BY e.seq LIMIT 1
    ), woken AS (
      UPDATE executions x SET wake_seq = x.wake_seq + 1 FROM other o WHERE x.id = o.id
      RETURNING x.id, (x.lease_owner IS NOT NULL AND x.lease_until > now()) AS leased, o.awaits_slot AS awaits
    ), nudged AS (
      -- A run whose lease is held needs no job: its advance is admitting it (it finds it admitted) or gives the
      -- lease back now and sees its wake_seq moved (lease.ts releaseLease), so it goes on in the job it has.
      SELECT id, awaits FROM moved WHERE id IS DISTINCT FROM ${self}::uuid AND NOT leased
      UNION SELECT id, awaits FROM woken WHERE NOT leased
    ), told AS (
      SELECT pg_notify(${notice.channel}, replace(replace(replace(${notice.body}, ${placeholders.member}, m.member_id::text), ${placeholders.execution}, m.id::text), ${placeholders.workflow}, m.workflow_id::text))
        FROM moved m
    ), jobs AS (
      -- A job waiting to be taken will do. A locked one will only when its advance is still on its way (it
      -- claims the run, finds it running and drives it); not when that advance found no slot and let the run
      -- go (\`awaits_slot\`, set under this lock): it only waits to be marked complete and would never look again.
      SELECT graphile_worker.add_job('execution.advance', json_build_object('executionId', n.id), job_key => 'execution:' || n.id::text, job_key_mode => 'replace')
        FROM nudged n
       WHERE NOT EXISTS (SELECT 1 FROM graphile_worker.jobs j WHERE j.key = 'execution:' || n.id::text AND (j.locked_at IS NULL OR NOT n.awaits))
    )
    -- One row whatever was admitted: scalar subqueries in the target list are always evaluated, so the
    -- jobs are added even when no run of this workflow moved (a join could skip them).
    SELECT (SELECT count(*) FROM jobs) AS added, (SELECT count(*) FROM told) AS told,
           coalesce((SELECT json_agg(json_build_object('id', id, 'member_id', member_id, 'workflow_id', workflow_id)) FROM moved), '[]'::json) AS admitted`;
}

/**
 * The `execution.status` running notification with placeholder ids, which the admission statement
 * replaces by each admitted run's own (uuids need no escaping inside the JSON text): the browsers get
 * exactly what `realtimeNotification` would send for that run, built once per process.
 */
const placeholders = {
  member: '00000000-0000-4000-8000-00000000ad01',
  execution: '00000000-0000-4000-8000-00000000ad02',
  workflow: '00000000-0000-4000-8000-00000000ad03',
};
let runningNoticeTemplate: { channel: string; body: string } | null = null;
function runningNotice(): { channel: string; body: string } {
  runningNoticeTemplate ??= realtimeNotification(placeholders.member, 'execution.status', { executionId: placeholders.execution, workflowId: placeholders.workflow, status: 'running' });
  return runningNoticeTemplate;
}

/**
 * Queued → running. Conditional on `queued`: a cancel that committed after the caller read the run
 * (admit reads without a lock) keeps it cancelled. Conditional on a closed burst window too: a mail
 * joining the run holds its row (dispatch/bursts.ts), and this waits for it and reads the window again.
 * `started_at` is the instant of the move (not the transaction's start, which may have waited for the
 * admission lock): a run admitted by the finish of the run ahead of it on its key starts after that finish.
 * Answers the runs it moved.
 */
async function markRunning(tx: Pick<Tx, '$queryRaw' | '$executeRaw'>, runs: { id: string; member_id: string; workflow_id: string }[]): Promise<typeof runs> {
  if (runs.length === 0) return [];
  const moved = await tx.$queryRaw<{ id: string }[]>`
    UPDATE executions SET status = 'running', started_at = coalesce(started_at, clock_timestamp()), updated_at = now()
    WHERE id = ANY(${runs.map((run) => run.id)}::uuid[]) AND status = 'queued'
      AND (coalesce_until IS NULL OR coalesce_until <= clock_timestamp())
    RETURNING id`;
  const movedIds = new Set(moved.map((row) => row.id));
  const running = runs.filter((run) => movedIds.has(run.id));
  for (const run of running) await emitToMember(run.member_id, 'execution.status', { executionId: run.id, workflowId: run.workflow_id, status: 'running' }, tx);
  return running;
}

/** A slot freed (a finish, a wait, a cancel): admit the next queued runs of the workflow. */
export async function kickQueued(workflowId: string, tx?: AdmissionTx): Promise<void> {
  if (tx) await admitQueued(workflowId, tx);
  else await admitQueuedAlone(workflowId);
}
