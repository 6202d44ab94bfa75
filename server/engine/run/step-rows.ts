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
import { db, type Tx } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';
import { emitToMember } from '../../core/realtime/emit';
import type { GraphNode } from '../contract/graph';
import type { ClaimedExecution } from './lease';
import { boundStepData } from './step-data';

export interface StepRow {
  id: string;
  nodeId: string;
  status: string;
  attempt: number;
  output: string | null;
  data: unknown;
  state: unknown;
  /** A decision for the step (an approval's, a reply that ended a wait; null when none came). */
  decision?: unknown;
  attempts: unknown;
  effects: unknown;
  attemptStartedAt: Date | null;
  nextAttemptAt: Date | null;
  startedAt: Date | null;
}

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

export async function loadSteps(executionId: string): Promise<StepRow[]> {
  return db().executionStep.findMany({ where: { executionId }, select: stepSelect, orderBy: { seq: 'asc' } });
}

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
  execution: Pick<ClaimedExecution, 'id' | 'memberId'>;
  node: Pick<GraphNode, 'id' | 'type'>;
}

/**
 * Writes the step (creating it the first time) and, when its status changes, tells the browsers. `also`
 * runs in the same transaction, after the write: what must commit with it (a wait for a reply registered
 * with the suspension, or dropped with the step's end: dispatch/reply-waits.ts).
 */
export async function writeStep(run: StepOwner, ref: StepRef, write: StepWrite, announce = true, also?: (tx: Tx) => Promise<void>): Promise<void> {
  const data: StepWrite = ref.input ? { input: ref.input as object, ...write } : write;
  await db().$transaction(async (tx) => {
    if (ref.persisted) {
      await tx.executionStep.update({ where: { id: ref.id }, data });
    } else {
      await tx.executionStep.create({
        data: { id: ref.id, executionId: run.execution.id, nodeId: run.node.id, nodeType: run.node.type, attempt: ref.attempt, seq: ref.seq, startedAt: ref.startedAt, ...data },
      });
    }
    if (announce && typeof data.status === 'string') {
      await emitToMember(run.execution.memberId, 'execution.step', { executionId: run.execution.id, nodeId: run.node.id, status: data.status }, tx);
    }
    if (also) await also(tx);
  });
  ref.persisted = true;
}

// ---------------------------------------------------------------------------------------------
// Steps the advancer settles without running them (advance.ts).
// ---------------------------------------------------------------------------------------------

/** Steps the plan will never run (their branch was not taken), numbered from `firstSeq`. */
export async function writeSkippedSteps(executionId: string, nodes: { nodeId: string; nodeType: string }[], firstSeq: number): Promise<void> {
  await db().executionStep.createMany({
    data: nodes.map(({ nodeId, nodeType }, index) => ({ executionId, nodeId, nodeType, status: 'skipped', seq: firstSeq + index })),
    skipDuplicates: true,
  });
}

/** A step whose node type this instance does not know, opened as running so its failure is recorded on it. */
export async function openUnknownTypeStep(executionId: string, node: Pick<GraphNode, 'id' | 'type'>, seq: number): Promise<StepRow> {
  return db().executionStep.create({ data: { executionId, nodeId: node.id, nodeType: node.type, status: 'running', attempt: 1, seq, startedAt: new Date() }, select: stepSelect });
}

/** A disabled node passes its input on; a pinned one (test runs) answers its pinned output: succeeded at once. */
export async function writePassThroughStep(
  executionId: string,
  node: Pick<GraphNode, 'id' | 'type' | 'disabled'>,
  passed: { output: string; data: unknown; pinned: boolean },
  seq: number,
): Promise<void> {
  const bounded = boundStepData(passed.data);
  await db().executionStep.create({
    data: {
      executionId,
      nodeId: node.id,
      nodeType: node.type,
      status: 'succeeded',
      output: passed.output,
      data: bounded.data as object,
      dataTruncated: bounded.dataTruncated,
      pinned: passed.pinned,
      disabled: node.disabled,
      seq,
      durationMs: 0,
      startedAt: new Date(),
      finishedAt: new Date(),
    },
  });
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
