/**
 * The one owner of step rows (`execution_steps`): every INSERT and UPDATE of a step goes through a
 * function of this file, whatever wrote it before (run-step.ts's attempts, advance.ts's skipped,
 * disabled, pinned and unknown-type steps, finish.ts and cancel.ts closing the open steps of a run
 * that ends, resume.ts's decision, replay.ts's copied steps). A reader of the engine who asks "who
 * may have set this step's status?" reads one file; step-rows.test.ts fails when another engine file
 * writes a step.
 *
 * The suspension state is wrapped here once (`wrapSuspension`: the engine's view, mode and deadline,
 * around the node's own state) and unwrapped here once (`nodeStateOf`: what the node gets back, read by
 * run-step.ts when an attempt starts and interruptions.ts when it settles one cut off).
 */
import { randomUUID } from 'node:crypto';
import { db, pool, type Tx } from '../../core/db';
import { prepared } from '../../core/db/prepared';
import type { Prisma } from '../../generated/prisma/client';
import { realtimeNotification } from '../../core/realtime/emit';
import type { GraphNode } from '../contract/graph';
import type { ClaimedExecution } from './lease';
import { boundStepData } from './step-data';
import { remember, type HeldStep, type StepRow } from './step-journal';
import { statusFilter } from './run-by-id';

export type { StepRow } from './step-journal';

/** The columns of a StepRow, as the advancer reads them. */
export const stepSelect = {
  id: true,
  nodeId: true,
  status: true,
  attempt: true,
  output: true,
  data: true,
  state: true,
  decision: true,
  attempts: true,
  effects: true,
  attemptStartedAt: true,
  nextAttemptAt: true,
  startedAt: true,
} as const;

/** The run's steps as the advancer reads them (`stepSelect`'s columns), on the pool and prepared: most runs read them once. */
export async function loadSteps(executionId: string): Promise<StepRow[]> {
  const { rows } = await pool().query<StepRow>({ ...loadStepsStatement, values: [executionId] });
  return rows;
}

// The columns of `stepSelect`, each under its field's name (the table's columns are the fields in snake case).
const loadStepsStatement = prepared(
  `SELECT ${Object.keys(stepSelect).map((field) => `${field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)} AS "${field}"`).join(', ')}
     FROM execution_steps WHERE execution_id = $1::uuid ORDER BY seq`,
);

// ---------------------------------------------------------------------------------------------
// The suspension state: wrapped once, unwrapped once.
// ---------------------------------------------------------------------------------------------

/** A suspended step's `state`: how it waits (a timer, its children, a decision) and the node's own state. */
export interface SuspendState {
  mode: 'waiting' | 'children';
  until: string | null;
  node: unknown;
}

/** The state a suspending step is saved with: the engine's view of the wait around the node's own state. */
export function wrapSuspension(mode: SuspendState['mode'], until: Date | null, nodeState: unknown): SuspendState {
  return { mode, until: mode === 'waiting' && until ? until.toISOString() : null, node: nodeState };
}

/** The engine's view of a saved state when it is a suspension, else null. */
export function suspensionOf(state: unknown): SuspendState | null {
  return state && typeof state === 'object' && 'mode' in state ? (state as SuspendState) : null;
}

/** The node's own state inside a saved step state (what the executor gets back as `state`). */
export function nodeStateOf(state: unknown): unknown {
  const suspension = suspensionOf(state);
  return suspension ? suspension.node : (state ?? null);
}

// ---------------------------------------------------------------------------------------------
// Attempts (run-step.ts, interruptions.ts).
// ---------------------------------------------------------------------------------------------

/**
 * The step row of an attempt. A first attempt of a node with no effect outside the run is written
 * once, when it ends (an interruption only means it runs again: a deliberate saving of one write per
 * step); every other attempt is written when it starts, before its parameters are resolved, so one
 * cut off (even by an expression or a parameter that kills the process) is found open. Once a run has
 * been interrupted (a lease take-over), it is advanced in careful mode: every attempt is written when
 * it starts, so the next crash is pinned to its step (run/interruptions.ts bounds crash loops). Each
 * write and its live event share one transaction; the masked parameters ride on the attempt's later
 * writes (`input`), so writing first costs no extra write.
 */
export interface StepRef {
  id: string;
  persisted: boolean;
  attempt: number;
  seq: number;
  startedAt: Date;
  /** The step's parameters as it keeps them (secrets masked), once resolved: written with the attempt's next write. */
  input?: Record<string, unknown>;
}

export type StepWrite = Omit<Prisma.ExecutionStepUncheckedCreateInput, 'id' | 'executionId' | 'nodeId' | 'nodeType'>;

export interface StepOwner {
  execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>;
  node: Pick<GraphNode, 'id' | 'type'>;
}

export interface StepWriteOptions {
  /** Whether the member's browsers hear of a status change (`execution.step`); default true. */
  announce?: boolean;
  /**
   * Runs in the same transaction, after the write: what must commit with it (a wait for a reply
   * registered with the suspension, or dropped with the step's end: dispatch/reply-waits.ts).
   */
  also?: (tx: Tx) => Promise<void>;
  /**
   * The end of a first attempt that was never written (a node with no outside effect): held in the
   * advancer's journal and created with the next durable write (step-journal.ts), when there is one.
   * The success of a step whose row exists is held as well when it is a plain end (`isHeldEnd`): written
   * before the next step starts, or by the run's close (step-journal.ts, "Held ends").
   */
  hold?: boolean;
  /**
   * This write starts an attempt: it commits only while the run is still running under this
   * advance's lease (a cancel stops the next step from starting), else `StepsNotSaved` is thrown.
   */
  startsAttempt?: boolean;
}

/** The run was cancelled, finished elsewhere or taken over: the steps this advance holds are not written, nor this write. */
export class StepsNotSaved extends Error {
  constructor() {
    super('The run is no longer this advance\'s to write.');
  }
}

/**
 * Writes the step (creating it the first time) and, when its status changes, tells the browsers. With a
 * journal (an advancer's lease), the steps it holds are written first, and the journal's list follows
 * the write. One statement in the common case (issue 25 §1: an attempt's start and end are paid on
 * every step with an outside effect): the held steps, the lease guard, this step and the live events
 * together (`singleStatementWrite`); a write that must commit with something else (`also`), or that
 * changes a step still held, takes a transaction.
 */
export async function writeStep(run: StepOwner, ref: StepRef, write: StepWrite, options: StepWriteOptions = {}): Promise<void> {
  const { announce = true, also, hold = false, startsAttempt = false } = options;
  const data: StepWrite = ref.input ? { input: ref.input as object, ...write } : write;
  const journal = run.execution.journal;
  const stillHeld = journal?.held.some((step) => step.id === ref.id) ?? false;
  if (journal && hold && !also && !stillHeld && (!ref.persisted || isHeldEnd(data))) {
    journal.held.push({ ...heldColumns(data), id: ref.id, nodeId: run.node.id, nodeType: run.node.type, attempt: ref.attempt, seq: ref.seq, startedAt: ref.startedAt, announce, ended: ref.persisted });
    ref.persisted = true;
    remember(journal, ref, run.node.id, data);
    return;
  }
  const guarded = Boolean(journal && (journal.held.length > 0 || startsAttempt));
  const notice = announce && typeof data.status === 'string' ? realtimeNotification(run.execution.memberId, 'execution.step', { executionId: run.execution.id, nodeId: run.node.id, status: data.status }) : null;
  const columns = also || stillHeld ? null : plainColumns(data);
  if (columns) {
    await singleStatementWrite(run, ref, columns, notice, guarded);
  } else {
    await db().$transaction(async (tx) => {
      if (guarded && !(await flushHeldSteps(tx, run.execution))) throw new StepsNotSaved();
      if (ref.persisted) {
        await tx.executionStep.update({ where: { id: ref.id }, data });
      } else {
        await tx.executionStep.create({
          data: { id: ref.id, executionId: run.execution.id, nodeId: run.node.id, nodeType: run.node.type, attempt: ref.attempt, seq: ref.seq, startedAt: ref.startedAt, ...data },
        });
      }
      if (notice) await tx.$executeRaw`SELECT pg_notify(${notice.channel}, ${notice.body})`;
      if (also) await also(tx);
    });
  }
  ref.persisted = true;
  if (journal) {
    journal.held = [];
    remember(journal, ref, run.node.id, data);
  }
}

/** How each column of a step write is sent in raw SQL: its name and the cast of its parameter. */
const stepColumnSql: Record<keyof StepWrite, { name: string; cast: string; json?: true }> = {
  status: { name: 'status', cast: 'text' },
  attempt: { name: 'attempt', cast: 'int' },
  input: { name: 'input', cast: 'jsonb', json: true },
  output: { name: 'output', cast: 'text' },
  data: { name: 'data', cast: 'jsonb', json: true },
  dataTruncated: { name: 'data_truncated', cast: 'boolean' },
  durationMs: { name: 'duration_ms', cast: 'int' },
  effects: { name: 'effects', cast: 'jsonb', json: true },
  llmSkipped: { name: 'llm_skipped', cast: 'boolean' },
  attempts: { name: 'attempts', cast: 'jsonb', json: true },
  copiedFrom: { name: 'copied_from', cast: 'text' },
  warnings: { name: 'warnings', cast: 'text[]' },
  pinned: { name: 'pinned', cast: 'boolean' },
  disabled: { name: 'disabled', cast: 'boolean' },
  loop: { name: 'loop', cast: 'jsonb', json: true },
  error: { name: 'error', cast: 'jsonb', json: true },
  state: { name: 'state', cast: 'jsonb', json: true },
  decision: { name: 'decision', cast: 'jsonb', json: true },
  seq: { name: 'seq', cast: 'int' },
  attemptStartedAt: { name: 'attempt_started_at', cast: 'timestamptz' },
  nextAttemptAt: { name: 'next_attempt_at', cast: 'timestamptz' },
  startedAt: { name: 'started_at', cast: 'timestamptz' },
  finishedAt: { name: 'finished_at', cast: 'timestamptz' },
};

type SqlColumn = { name: string; cast: string; value: unknown };

/**
 * A step write as raw SQL columns, or null when a value is something only Prisma knows how to send
 * (its JSON null markers): that write takes the Prisma path. Undefined means "not set", as for Prisma.
 */
function plainColumns(write: StepWrite): SqlColumn[] | null {
  const columns: SqlColumn[] = [];
  for (const [key, value] of Object.entries(write)) {
    if (value === undefined) continue;
    // Own keys only: an inherited name (`constructor`, `toString`) must never become a column.
    const sql = Object.hasOwn(stepColumnSql, key) ? stepColumnSql[key as keyof StepWrite] : undefined;
    if (!sql) return null;
    if (value !== null && typeof value === 'object' && !(value instanceof Date) && !Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return null;
    // JSON columns are sent as text (pg would turn a JS array into a PostgreSQL array); null is SQL NULL.
    columns.push({ name: sql.name, cast: sql.cast, value: sql.json && value !== null ? JSON.stringify(value) : value });
  }
  return columns;
}

/**
 * One statement: the held steps and the lease guard (when `guarded`), this step's INSERT or UPDATE, and
 * the live events of both, on the pool directly (the hottest write of the engine). Nothing is written
 * when the guard fails (`StepsNotSaved`).
 */
async function singleStatementWrite(run: StepOwner, ref: StepRef, columns: SqlColumn[], notice: { channel: string; body: string } | null, guarded: boolean): Promise<void> {
  const journal = run.execution.journal;
  const held = guarded && journal ? journal.held : [];
  const values: unknown[] = [run.execution.id, guarded ? journal!.owner : null, JSON.stringify(held.map(heldRowOf))];
  const parameter = (value: unknown, cast: string) => `$${values.push(value)}::${cast}`;
  const write = ref.persisted
    ? `UPDATE execution_steps SET ${columns.map((column) => `${column.name} = ${parameter(column.value, column.cast)}`).join(', ')}
        WHERE id = ${parameter(ref.id, 'uuid')} AND execution_id = (SELECT id FROM live)`
    : `INSERT INTO execution_steps (id, execution_id, node_id, node_type, attempt, seq, started_at${columns.map((column) => `, ${column.name}`).join('')})
       SELECT ${parameter(ref.id, 'uuid')}, live.id, ${parameter(run.node.id, 'text')}, ${parameter(run.node.type, 'text')}, ${parameter(ref.attempt, 'int')},
              ${parameter(ref.seq, 'int')}, ${parameter(ref.startedAt, 'timestamptz')}${columns.map((column) => `, ${parameter(column.value, column.cast)}`).join('')}
         FROM live`;
  const notices = [...held.filter((step) => step.announce).map((step) => heldNotice(run.execution, step)), ...(notice ? [notice] : [])];
  const text = `WITH live AS (
       ${guarded ? `SELECT id FROM executions WHERE id = $1::uuid AND ${statusFilter("status = 'running'")} AND lease_owner = $2 FOR SHARE` : `SELECT $1::uuid AS id WHERE $2::text IS NULL`}
     ), ${heldWrites('$3', 'held', '$1')}, written AS (${write} RETURNING 1), told AS (
       SELECT pg_notify(${parameter(notices[0]?.channel ?? '', 'text')}, n.body) FROM live, unnest(${parameter(notices.map((each) => each.body), 'text[]')}) AS n(body)
     )
     SELECT (SELECT count(*) FROM live)::int AS live, (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM held)::int AS held,
            (SELECT count(*) FROM told)::int AS told`;
  // Prepared (core/db/prepared.ts): one text per shape of write (its columns), a few dozen in all.
  const { rows } = await pool().query<{ live: number; written: number }>({ ...prepared(text), values });
  if (rows[0].live === 0) throw new StepsNotSaved();
  // Prisma's update of a missing row fails too: a step this advance believes written is not there.
  if (rows[0].written === 0) throw new Error(`The step ${ref.id} of execution ${run.execution.id} was not found to update.`);
}

/** The columns a held end sets (`heldWrites`' UPDATE): a success's, every one of them given; `input` may be left as it is. */
const heldEndColumns: readonly (keyof StepWrite)[] = ['status', 'output', 'data', 'dataTruncated', 'durationMs', 'effects', 'warnings', 'attemptStartedAt', 'nextAttemptAt', 'finishedAt'];

/**
 * Whether a write of an existing step may be held as an end: it sets exactly what the held UPDATE sets (and maybe
 * `input`), with no attempt open or scheduled. Anything else (a loop's progress, a retry's history, a suspension's
 * state) is written at once, as before.
 */
function isHeldEnd(write: StepWrite): boolean {
  const keys = Object.keys(write).filter((key) => write[key as keyof StepWrite] !== undefined);
  return (
    heldEndColumns.every((column) => write[column] !== undefined) &&
    keys.every((key) => key === 'input' || heldEndColumns.includes(key as keyof StepWrite)) &&
    write.attemptStartedAt === null &&
    write.nextAttemptAt === null &&
    write.finishedAt !== null
  );
}

/** The columns of a held step's INSERT (or a held end's UPDATE), from a step write. */
function heldColumns(write: StepWrite): Omit<HeldStep, 'id' | 'nodeId' | 'nodeType' | 'attempt' | 'seq' | 'announce'> {
  return {
    status: write.status ?? 'queued',
    input: write.input,
    output: write.output,
    data: write.data,
    dataTruncated: write.dataTruncated,
    durationMs: write.durationMs,
    effects: write.effects,
    warnings: Array.isArray(write.warnings) ? (write.warnings as string[]) : undefined,
    loop: write.loop,
    pinned: write.pinned,
    disabled: write.disabled,
    finishedAt: write.finishedAt === undefined || write.finishedAt === null ? null : new Date(write.finishedAt),
  };
}

/**
 * Writes the steps the advance holds (step-journal.ts), in the caller's transaction, in one statement
 * that also checks the run is still running under its lease (locking the row against a cancel until
 * the transaction ends) and tells the browsers. False, writing nothing, when it is not: the caller's
 * transaction must not go on as this advance's.
 */
export function flushHeldSteps(tx: Pick<Tx, '$queryRawUnsafe'>, execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>): Promise<boolean> {
  return flushHeldStepsBy((values) => tx.$queryRawUnsafe<{ live: number }[]>(flushHeldStepsSql.text, ...values), execution);
}

async function flushHeldStepsBy(
  query: (values: unknown[]) => Promise<{ live: number }[]>,
  execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>,
): Promise<boolean> {
  const journal = execution.journal;
  if (!journal) return true;
  const held = heldStepsPayload(execution);
  const [result] = await query([execution.id, journal.owner, held.rows, held.notices[0]?.channel ?? '', held.notices.map((notice) => notice.body)]);
  if (result.live === 0) return false;
  journal.held = [];
  return true;
}

/**
 * Before another step starts: a held end (step-journal.ts, "Held ends") is written with the other steps held, in
 * one statement on the pool, a durable commit of its own, as the success's own write was. A step whose first write
 * comes first (an attempt of a node with an outside effect) writes them with it instead (`writeStep`'s guard).
 * `StepsNotSaved` when the run is no longer this advance's.
 */
export async function writeHeldEnds(execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>): Promise<void> {
  if (!execution.journal?.held.some((step) => step.ended)) return;
  const onPool = async (values: unknown[]) => (await pool().query<{ live: number }>({ ...flushHeldStepsSql, values })).rows;
  if (!(await flushHeldStepsBy(onPool, execution))) throw new StepsNotSaved();
}

/** Prepared (core/db/prepared.ts): written at every run's end. */
const flushHeldStepsSql = prepared(`WITH live AS (
       SELECT id FROM executions WHERE id = $1::uuid AND ${statusFilter("status = 'running'")} AND lease_owner = $2 FOR SHARE
     ), ${heldWrites('$3', 'written', '$1')}, told AS (
       SELECT pg_notify($4, n.body) FROM live, unnest($5::text[]) AS n(body)
     )
     SELECT (SELECT count(*) FROM live)::int AS live, (SELECT count(*) FROM written)::int AS written, (SELECT count(*) FROM told)::int AS told`);

/**
 * What a statement writing the advance's held steps needs (the run's close, finish.ts): their rows for `heldWrites`,
 * the live events of those announced, and whether one of them recorded an effect (`acted`, acted.ts: the statement's
 * own reading of the run's steps does not see the rows it inserts).
 */
export function heldStepsPayload(execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>): { rows: string; notices: { channel: string; body: string }[]; acted: boolean } {
  const held = execution.journal?.held ?? [];
  return {
    rows: JSON.stringify(held.map(heldRowOf)),
    notices: held.filter((step) => step.announce).map((step) => heldNotice(execution, step)),
    acted: held.some((step) => Array.isArray(step.effects) && step.effects.length > 0),
  };
}

/**
 * Two CTEs writing the held steps given as a JSON array in `parameter`: `name`, the INSERT of the rows not written
 * yet, for the run in the statement's `live` CTE (nothing when the lease guard fails: no step starts after a cancel),
 * and `name_ended`, the UPDATE of the held ends of the run `execution` (the rows exist; `isHeldEnd` says which columns
 * they set). A held end is written whatever the guard says, as the success's own write was: its effect happened,
 * and a run cancelled meanwhile must still show it (its `effects`, what an undo reads). A step is in one CTE or the
 * other, never both: one statement cannot change a row twice, and `writeStep` writes a step still held through a
 * transaction after the flush.
 */
export function heldWrites(parameter: string, name: string, execution: string): string {
  const rows = `jsonb_to_recordset(${parameter}::jsonb) AS r(id uuid, node_id text, node_type text, status text, attempt int, seq int, input jsonb,
              output text, data jsonb, data_truncated boolean, duration_ms int, effects jsonb, warnings text[], loop jsonb, pinned boolean,
              disabled boolean, started_at timestamptz, finished_at timestamptz, ended boolean)`;
  return `${name} AS (
       INSERT INTO execution_steps (id, execution_id, node_id, node_type, status, attempt, seq, input, output, data, data_truncated,
                                    duration_ms, effects, warnings, loop, pinned, disabled, started_at, finished_at)
       SELECT r.id, live.id, r.node_id, r.node_type, r.status, r.attempt, r.seq, r.input, r.output, nullif(r.data, 'null'::jsonb), r.data_truncated,
              r.duration_ms, r.effects, r.warnings, nullif(r.loop, 'null'::jsonb), r.pinned, r.disabled, r.started_at, r.finished_at
         FROM live, ${rows}
        WHERE NOT r.ended
       ON CONFLICT (execution_id, node_id) DO NOTHING
       RETURNING 1
     ), ${name}_ended AS (
       UPDATE execution_steps s SET status = r.status, input = coalesce(nullif(r.input, 'null'::jsonb), s.input), output = r.output,
              data = nullif(r.data, 'null'::jsonb), data_truncated = r.data_truncated, duration_ms = r.duration_ms, effects = r.effects,
              warnings = r.warnings, attempt_started_at = NULL, next_attempt_at = NULL, finished_at = r.finished_at
         FROM ${rows}
        -- After the guard's row lock whatever it found (a one-time filter on it): the run's row, then its steps, the
        -- order a cancel takes them in, never the reverse (two statements taking them crosswise would deadlock).
        WHERE r.ended AND s.id = r.id AND s.execution_id = ${execution}::uuid AND (SELECT count(*) FROM live) >= 0
       RETURNING 1
     )`;
}

/** A held step as a row of `heldWrites`' recordset. */
function heldRowOf(step: HeldStep) {
  return {
    id: step.id,
    node_id: step.nodeId,
    node_type: step.nodeType,
    status: step.status,
    attempt: step.attempt,
    seq: step.seq,
    // A held end without parameters keeps the row's (`heldWrites`' UPDATE); a new row has `{}`.
    input: step.input ?? (step.ended ? null : {}),
    output: step.output ?? null,
    data: step.data ?? null,
    data_truncated: step.dataTruncated ?? false,
    duration_ms: step.durationMs ?? null,
    effects: step.effects ?? [],
    warnings: step.warnings ?? [],
    loop: step.loop ?? null,
    pinned: step.pinned ?? false,
    disabled: step.disabled ?? false,
    started_at: step.startedAt ?? null,
    finished_at: step.finishedAt ?? null,
    ended: step.ended ?? false,
  };
}

function heldNotice(execution: Pick<ClaimedExecution, 'id' | 'memberId'>, step: HeldStep) {
  return realtimeNotification(execution.memberId, 'execution.step', { executionId: execution.id, nodeId: step.nodeId, status: step.status });
}

// ---------------------------------------------------------------------------------------------
// Steps the advancer settles without running them (advance.ts).
// ---------------------------------------------------------------------------------------------

/** Steps the plan will never run (their branch was not taken), numbered from `firstSeq`: held with an advancer's journal. */
export async function writeSkippedSteps(execution: Pick<ClaimedExecution, 'id' | 'journal'>, nodes: { nodeId: string; nodeType: string }[], firstSeq: number): Promise<void> {
  const journal = execution.journal;
  if (journal) {
    nodes.forEach(({ nodeId, nodeType }, index) => {
      const step = { id: randomUUID(), nodeId, nodeType, status: 'skipped', attempt: 0, seq: firstSeq + index, announce: false };
      journal.held.push(step);
      remember(journal, { id: step.id, attempt: 0, startedAt: null }, nodeId, { status: 'skipped' });
    });
    return;
  }
  await db().executionStep.createMany({
    data: nodes.map(({ nodeId, nodeType }, index) => ({ executionId: execution.id, nodeId, nodeType, status: 'skipped', seq: firstSeq + index })),
    skipDuplicates: true,
  });
}

/** A step whose node type this instance does not know, opened as running so its failure is recorded on it. */
export async function openUnknownTypeStep(executionId: string, node: Pick<GraphNode, 'id' | 'type'>, seq: number): Promise<StepRow> {
  return db().executionStep.create({ data: { executionId, nodeId: node.id, nodeType: node.type, status: 'running', attempt: 1, seq, startedAt: new Date() }, select: stepSelect });
}

/** A disabled node passes its input on; a pinned one (test runs) answers its pinned output: succeeded at once (held with a journal). */
export async function writePassThroughStep(
  execution: Pick<ClaimedExecution, 'id' | 'memberId' | 'journal'>,
  node: Pick<GraphNode, 'id' | 'type' | 'disabled'>,
  passed: { output: string; data: unknown; pinned: boolean },
  seq: number,
): Promise<void> {
  const bounded = boundStepData(passed.data);
  const now = new Date();
  const ref: StepRef = { id: randomUUID(), persisted: false, attempt: 0, seq, startedAt: now };
  await writeStep({ execution, node }, ref, {
    status: 'succeeded',
    output: passed.output,
    data: bounded.data as object,
    dataTruncated: bounded.dataTruncated,
    pinned: passed.pinned,
    disabled: node.disabled,
    durationMs: 0,
    finishedAt: now,
  }, { announce: false, hold: true });
}

// ---------------------------------------------------------------------------------------------
// A run's end, a decision, a replay (finish.ts, cancel.ts, resume.ts, replay.ts), in the caller's transaction.
// ---------------------------------------------------------------------------------------------

/** A step's statuses while it is not finished (failing or closing a run's steps touches only these). */
const openStatuses = ['queued', 'running', 'waiting'];

/** Steps still open when the run ends (a run timeout) fail with it, under the run's stored error. */
export async function failOpenSteps(tx: Tx, executionId: string, storedError: object | undefined): Promise<void> {
  await tx.executionStep.updateMany({
    where: { executionId, status: { in: openStatuses } },
    data: { status: 'failed', finishedAt: new Date(), attemptStartedAt: null, nextAttemptAt: null, error: storedError },
  });
}

/** Steps in progress of cancelled runs are closed where they stand (their status stays; the run is final): no retry is due. */
export async function closeCancelledSteps(tx: Tx, executionIds: string[]): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE execution_steps SET finished_at = coalesce(finished_at, now()), next_attempt_at = NULL
      WHERE execution_id = ANY($1::uuid[]) AND status = ANY($2::text[])`,
    executionIds,
    openStatuses,
  );
}

/** A decision for a waiting step (an approval's, a reply): kept on the step until its advancer hands it to the node. */
export async function storeDecision(tx: Tx, stepId: string, decision: unknown): Promise<void> {
  await tx.executionStep.update({ where: { id: stepId }, data: { decision: (decision ?? null) as object } });
}

/** The steps a replay from the failed step keeps, copied onto the new run. */
export async function copyReplayedSteps(tx: Tx, rows: Prisma.ExecutionStepCreateManyInput[]): Promise<void> {
  await tx.executionStep.createMany({ data: rows });
}
