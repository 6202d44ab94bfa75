/**
 * Attempts cut off by a runner that stopped, and the bound on crash loops.
 *
 * A runner that dies (SIGKILL, out of memory, a native crash) leaves its leases to expire; the sweeper
 * queues those runs again and the next claim counts a lease take-over (lease.ts, in the claim's own
 * UPDATE). From the first take-over on, the run is advanced in careful mode: every attempt is written
 * when it starts, before its parameters are resolved (run-step.ts), so a later crash leaves the
 * attempt open and is pinned to its step. The next advancer settles such an attempt first:
 *
 * - a node acting on a third-party service (`external`) fails `step_effect_uncertain` (never retried blindly);
 * - any other is retried without consuming an attempt (spec: such nodes "are retried after an
 *   interruption"), its history keeping an `interrupted` entry, unless the run's crashes now blamed on
 *   this step reach `crashLoopBound`: then it fails permanently with `step_crash_loop` (its
 *   `onError` applies). The crashes blamed on a step are its own cut-off attempts plus the run's
 *   take-overs no open attempt explains (an interruption of a first attempt that was not written yet).
 *
 * A run whose take-overs no open attempt explains reach the bound by themselves (its advancer keeps
 * dying between steps) fails `execution_crash_loop` before anything runs again.
 */
import { db } from '../../core/db';
import type { NodeDefinition } from '../nodes/define-node';
import type { GraphNode } from '../graph/schema';
import { NodeFailure } from './failures';
import type { ExecutionError } from './finish';
import type { ClaimedExecution } from './lease';
import { recordFailure, stepError, type AttemptHistoryEntry, type StepOutcome, type StepRow } from './run-step';

/** Crashes of one run (blamed on one step, or unexplained) after which it is not tried again. */
export const crashLoopBound = 3;

interface CrashCounts {
  /** Interrupted attempts in the steps' histories (steps copied by a replay excluded). */
  blamed: number;
  /** Attempts found open now: each is a take-over about to be blamed on its step. */
  open: number;
}

async function crashCounts(executionId: string): Promise<CrashCounts> {
  const rows = await db().$queryRaw<{ blamed: number; open: number }[]>`
    SELECT coalesce(sum((SELECT count(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(s.attempts) = 'array' THEN s.attempts ELSE '[]'::jsonb END) a
                         WHERE a->>'interrupted' = 'true')), 0)::int AS blamed,
           (count(*) FILTER (WHERE s.status = 'running' AND s.attempt_started_at IS NOT NULL))::int AS open
    FROM execution_steps s WHERE s.execution_id = ${executionId}::uuid AND s.copied_from IS NULL`;
  return { blamed: Number(rows[0]?.blamed ?? 0), open: Number(rows[0]?.open ?? 0) };
}

/** Take-overs no interrupted or open attempt accounts for. */
function unexplained(execution: Pick<ClaimedExecution, 'leaseTakeovers'>, counts: CrashCounts): number {
  return Math.max(0, execution.leaseTakeovers - counts.blamed - counts.open);
}

/**
 * Called right after a claim: the run's failure when its unexplained take-overs reached the bound,
 * else null. Costs nothing until the run has been taken over `crashLoopBound` times.
 */
export async function runCrashLoop(execution: ClaimedExecution): Promise<ExecutionError | null> {
  if (execution.leaseTakeovers < crashLoopBound) return null;
  const crashes = unexplained(execution, await crashCounts(execution.id));
  if (crashes < crashLoopBound) return null;
  const failure = new NodeFailure('execution_crash_loop', { details: { crashes, limit: crashLoopBound } });
  return { code: failure.code, message: failure.message, nodeId: null, nodeName: null, kind: 'permanent', attempts: 0, nodeType: null, details: failure.details, at: new Date().toISOString() };
}

interface SuspendState {
  mode: 'waiting' | 'children';
  node: unknown;
}

function interruptionsOf(step: StepRow): number {
  return Array.isArray(step.attempts) ? (step.attempts as AttemptHistoryEntry[]).filter((entry) => entry.interrupted === true).length : 0;
}

/** Settles an attempt found open by a new advancer (see the module comment). */
export async function settleInterrupted(execution: ClaimedExecution, node: GraphNode | undefined, definition: NodeDefinition | undefined, step: StepRow): Promise<StepOutcome> {
  if (!node || !definition) {
    const failure = new NodeFailure('node_type_unknown');
    return { kind: 'failed', error: stepError({ node: node ?? ({ id: step.nodeId, name: step.nodeId, type: '' } as never) }, failure, step.attempt) };
  }
  const suspendState = step.state as SuspendState | null;
  const unwrapped = suspendState && typeof suspendState === 'object' && 'mode' in suspendState ? { ...step, state: suspendState.node } : step;
  const run = { execution, node, definition, step: unwrapped };
  const ref = { id: step.id, persisted: true, attempt: step.attempt, seq: 0, startedAt: step.startedAt ?? new Date() };
  if (definition.effect === 'external') {
    const failure = new NodeFailure('step_effect_uncertain', { message: 'The step was cut off while calling a service (the runner stopped); it may or may not have taken effect.' });
    return recordFailure(run, ref, failure, { interrupted: true });
  }
  const interruptions = interruptionsOf(step) + 1;
  const crashes = interruptions + unexplained(execution, await crashCounts(execution.id));
  if (crashes >= crashLoopBound) {
    const failure = new NodeFailure('step_crash_loop', { details: { crashes, limit: crashLoopBound } });
    return recordFailure(run, ref, failure, { interrupted: true });
  }
  const failure = new NodeFailure('internal', { kind: 'transient', message: 'The attempt was interrupted (the runner stopped) and is tried again; the interruption consumed no attempt.' });
  return recordFailure(run, ref, failure, { interrupted: true, keptAttempt: { interruptions } });
}
