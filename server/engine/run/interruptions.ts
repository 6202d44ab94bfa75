/**
 * Attempts cut off by a runner that stopped, and the bound on crash loops.
 *
 * A runner that dies (SIGKILL, out of memory, a native crash) leaves its leases to expire; the sweeper
 * queues those runs again and the next claim counts a lease take-over (lease.ts, in the claim's own
 * UPDATE: no extra write). The count is the run's crash streak. It goes back to zero as soon as the
 * run shows the crash was not its own: an attempt of a step that was cut off ends on its own
 * (`endCrashStreak`, lease.ts), or an advance of it lets its lease go alive with no cut-off step still
 * to retry (`releaseLease`'s `endStreak`). So legitimate restarts spread over a long run never add up.
 * Not any attempt's end: the steps an advance held in memory (step-journal.ts) die with their runner and
 * run again, and their ends say nothing about the step that killed it. A run with a streak is a suspect:
 *
 * - careful mode: every attempt is written when it starts, before its parameters are resolved
 *   (run-step.ts), so the next crash leaves it open and is pinned to its step;
 * - isolation, from the second take-over in a row (`isolatedFromStreak`): a runner process advances one
 *   such run at a time (`isolateSuspect`); another is put back in the queue for a moment without
 *   holding its lease. When a runner dies, every run it held is taken over, but among isolated runs only
 *   the one it was advancing: runs that merely shared a runner with a step that kills it reach at most
 *   the second take-over, then make progress alone and are cleared, while the poison step's streak
 *   grows to the bound. After a first take-over runs recover side by side as before (careful mode
 *   only): one runner crash must not make its twenty runs wait for each other.
 *
 * The next advancer settles an attempt found open: a node acting on a third-party service (`external`)
 * fails `step_effect_uncertain` (never retried blindly); any other is retried without consuming an
 * attempt (spec: such nodes "are retried after an interruption"; the history keeps an `interrupted`
 * entry). When the streak reaches `crashLoopBound`, the open step fails permanently with
 * `step_crash_loop` instead (its `onError` applies), or, with no attempt open to blame (the advancer
 * died between steps), the run fails `execution_crash_loop` before anything runs again.
 */
import type { NodeDefinition } from '../contract/define-node';
import type { GraphNode } from '../contract/graph';
import { NodeFailure } from '../contract/failures';
import type { ExecutionError } from './finish';
import { endCrashStreak, type ClaimedExecution } from './lease';
import { recordFailure, stepError, type StepOutcome } from './run-step';
import { nodeStateOf, type StepRow } from './step-rows';

/** Take-overs in a row (no attempt of the run ending on its own between them) after which it is not tried again. */
export const crashLoopBound = 3;

/** The crash streak from which a run is advanced alone in its process (see the module comment). */
export const isolatedFromStreak = crashLoopBound - 1;

/** The isolated suspect run this process is advancing, if any (see the module comment). */
let isolated: string | null = null;

/** Takes this process's suspect slot for `executionId`; false when another suspect holds it. */
export function isolateSuspect(executionId: string): boolean {
  if (isolated !== null && isolated !== executionId) return false;
  isolated = executionId;
  return true;
}

export function releaseSuspect(executionId: string): void {
  if (isolated === executionId) isolated = null;
}

/** The run's failure when its streak reached the bound with no attempt open to blame, else null. */
export function runCrashLoop(execution: ClaimedExecution): ExecutionError | null {
  if (execution.leaseTakeovers < crashLoopBound) return null;
  const failure = new NodeFailure('execution_crash_loop', { details: { crashes: execution.leaseTakeovers, limit: crashLoopBound } });
  return { code: failure.code, message: failure.message, nodeId: null, nodeName: null, kind: 'permanent', attempts: 0, nodeType: null, details: failure.details, at: new Date().toISOString() };
}


function interruptionsOf(step: StepRow): number {
  return Array.isArray(step.attempts) ? (step.attempts as { interrupted?: boolean }[]).filter((entry) => entry.interrupted === true).length : 0;
}

/** Settles an attempt found open by a new advancer (see the module comment). */
export async function settleInterrupted(execution: ClaimedExecution, node: GraphNode | undefined, definition: NodeDefinition | undefined, step: StepRow): Promise<StepOutcome> {
  if (!node || !definition) {
    const failure = new NodeFailure('node_type_unknown');
    return { kind: 'failed', error: stepError({ node: node ?? ({ id: step.nodeId, name: step.nodeId, type: '' } as never) }, failure, step.attempt) };
  }
  const run = { execution, node, definition, step: { ...step, state: nodeStateOf(step.state) } };
  const ref = { id: step.id, persisted: true, attempt: step.attempt, seq: 0, startedAt: step.startedAt ?? new Date() };
  let failure: NodeFailure;
  if (definition.effect === 'external') {
    failure = new NodeFailure('step_effect_uncertain', { message: 'The step was cut off while calling a service (the runner stopped); it may or may not have taken effect.' });
  } else if (execution.leaseTakeovers >= crashLoopBound) {
    failure = new NodeFailure('step_crash_loop', { details: { crashes: execution.leaseTakeovers, limit: crashLoopBound } });
  } else {
    const retry = new NodeFailure('internal', { kind: 'transient', message: 'The attempt was interrupted (the runner stopped) and is tried again; the interruption consumed no attempt.' });
    return recordFailure(run, ref, retry, { interrupted: true, keptAttempt: { interruptions: interruptionsOf(step) + 1 } });
  }
  const outcome = await recordFailure(run, ref, failure, { interrupted: true });
  // The step is settled for good (failed, or caught by its onError): the streak that led here is over.
  await endCrashStreak(execution);
  return outcome;
}
