/**
 * Advancing an execution: the engine's loop. One call takes the execution's lease, admits it into a
 * slot when it is queued, then runs its ready steps one after another until it finishes, fails, must
 * wait (a retry delay, a wait, children) or must stop (cancelled, lease lost). Every decision reads
 * the saved steps, so a runner killed at any instant leaves a state the next advancer continues from:
 * an attempt found open was interrupted and is settled first (retried, or `step_effect_uncertain`
 * for a node that was calling a service, or `step_crash_loop` when its runner kept dying: see
 * interruptions.ts).
 */
import { randomUUID } from 'node:crypto';
import { db } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import { log } from '../../core/log';
import { findNodeType } from '../nodes/registry';
import { outputsOf, type NodeDefinition } from '../contract/define-node';
import { admit } from './admission';
import { NodeFailure } from '../contract/failures';
import { failExecution, succeedExecution, suspendExecution, type ExecutionError } from './finish';
import { claimExecution, heartbeatEveryMs, releaseLease, type ClaimedExecution } from './lease';
import { loadGraph, type RunnableGraph } from './load-graph';
import { planExecution, type PlanStep, type StepStatus } from './plan';
import { recordFailure, runStep, type StepOutcome, type StopReason } from './run-step';
import { flushHeldSteps, loadSteps, openUnknownTypeStep, StepsNotSaved, suspensionOf, writePassThroughStep, writeSkippedSteps, type StepRow } from './step-rows';
import { leavesCutOffStep, openJournal } from './step-journal';
import { isolatedFromStreak, isolateSuspect, releaseSuspect, runCrashLoop, settleInterrupted } from './interruptions';
import { allChildrenFinished } from './children';

/** Rounds of claim → drive in one job before handing over to a fresh job (keeps one job bounded). */
const maxRounds = 20;

export async function advanceExecution(executionId: string, runnerId: string): Promise<void> {
  for (let round = 0; round < maxRounds; round += 1) {
    if (!(await advanceOnce(executionId, `${runnerId}:${randomUUID().slice(0, 8)}`))) return;
  }
  await enqueue('execution.advance', { executionId }, { jobKey: jobKeys.execution(executionId) });
}

/** A suspect run that finds this process's suspect slot taken looks again after about this long. */
const suspectRetryMs = 500;

/** One lease: returns true when the execution must be looked at again at once. */
async function advanceOnce(executionId: string, owner: string): Promise<boolean> {
  const claimed = await claimExecution(executionId, owner);
  if (!claimed) return false;
  if (claimed.leaseTakeovers >= isolatedFromStreak && !isolateSuspect(executionId)) {
    // Another run taken over again and again is being advanced here: one at a time, so a runner
    // that dies once more is blamed on one run only (interruptions.ts). Not holding the lease meanwhile.
    await releaseLease(executionId, owner, 0, claimed.wakeSeq);
    const runAt = new Date(Date.now() + suspectRetryMs * (0.5 + Math.random()));
    await enqueue('execution.advance', { executionId }, { jobKey: jobKeys.execution(executionId), runAt });
    return false;
  }
  try {
    return await advanceClaimed(claimed, owner);
  } finally {
    releaseSuspect(executionId);
  }
}

async function advanceClaimed(claimed: ClaimedExecution, owner: string): Promise<boolean> {
  const executionId = claimed.id;
  let leaseStart = Date.now();
  let working = false;
  const stop = new AbortController();
  const heartbeat = setInterval(() => {
    void beat(claimed, owner, leaseStart, stop).catch((error: unknown) => log.warn({ err: error, executionId }, 'execution heartbeat failed'));
  }, heartbeatEveryMs);
  let again = false;
  try {
    // No slot: the run is let go, queued. Not a `return`: another admission may take it in before the lease goes
    // back below, without a job since this advance held it (admission.ts), and the release's wake-up must then
    // bring this advance back for it, or the run would stay running with nobody advancing it.
    const admitted = claimed.status !== 'queued' || (await admit(claimed));
    if (admitted && claimed.status === 'queued') {
      claimed.status = 'running';
      // Waiting for a slot is not working time.
      leaseStart = Date.now();
    }
    if (admitted) {
      working = true;
      // A run without steps when claimed (its first advance; a replay is created with the steps it keeps) has nothing
      // to read: the claim said so (lease.ts `hasSteps`), and only this advance may write them now.
      claimed.journal = openJournal(owner, claimed.hasSteps ? await loadSteps(executionId) : [], leaseStart);
      again = await drive(claimed, stop.signal, leaseStart);
    }
  } finally {
    clearInterval(heartbeat);
    // Steps still held (the run parks for a retry or for its children): written before the lease goes,
    // unless the run is no longer this advance's (cancelled, taken over), when they are dropped.
    if (claimed.journal?.held.length) {
      await db()
        .$transaction((tx) => flushHeldSteps(tx, claimed))
        .catch((error: unknown) => log.warn({ err: error, executionId }, 'writing the held steps failed'));
    }
    // Alive at the end of an advance that drove the run: unless a cut-off step still waits for its retry,
    // the crash streak ends here (interruptions.ts).
    const endStreak = working && claimed.leaseTakeovers > 0 && claimed.journal !== undefined && !leavesCutOffStep(claimed.journal);
    // A run that ended gave its lease back with its final status (finish.ts).
    if (!claimed.journal?.leaseReleased) {
      const woken = await releaseLease(executionId, owner, working ? Date.now() - leaseStart : 0, claimed.wakeSeq, endStreak);
      again ||= woken;
    }
  }
  return again;
}

async function beat(execution: ClaimedExecution, owner: string, leaseStart: number, stop: AbortController): Promise<void> {
  if (stop.signal.aborted) return;
  const rows = await db().$queryRaw<{ status: string }[]>`
    UPDATE executions SET lease_until = now() + interval '15 seconds'
    WHERE id = ${execution.id}::uuid AND lease_owner = ${owner} RETURNING status`;
  if (rows.length === 0) stop.abort('lease_lost' satisfies StopReason);
  else if (rows[0].status === 'cancelled' || rows[0].status === 'succeeded' || rows[0].status === 'failed') stop.abort('cancelled' satisfies StopReason);
  else if (overTime(execution, leaseStart)) stop.abort('run_timeout' satisfies StopReason);
}

function overTime(execution: ClaimedExecution, leaseStart: number): boolean {
  return execution.workingMs + (Date.now() - leaseStart) > execution.timeoutMs;
}

function timeoutError(execution: ClaimedExecution, nodeId: string | null, nodeName: string | null, nodeType: string | null): ExecutionError {
  return {
    code: 'execution_timeout',
    message: `The run worked longer than its maximum of ${Math.round(execution.timeoutMs / 1000)} s.`,
    nodeId,
    nodeName,
    kind: 'permanent',
    attempts: 0,
    nodeType,
    details: { timeoutMs: execution.timeoutMs },
    at: new Date().toISOString(),
  };
}


/**
 * Runs the execution's steps while it can; returns true when it must be looked at again at once. The
 * steps are the journal's (step-journal.ts): after a step that simply ended, the list is what this
 * advance wrote; after anything else (a retry scheduled, a suspension, an interruption settled) they are
 * read again, so those rarer paths decide on the saved rows as before.
 */
async function drive(execution: ClaimedExecution, stop: AbortSignal, leaseStart: number): Promise<boolean> {
  try {
    return await driveSteps(execution, stop, leaseStart);
  } catch (thrown) {
    // Cancelled, finished elsewhere or taken over while it ran: nothing of this advance is kept.
    if (thrown instanceof StepsNotSaved) return false;
    throw thrown;
  }
}

async function driveSteps(execution: ClaimedExecution, stop: AbortSignal, leaseStart: number): Promise<boolean> {
  const journal = execution.journal!;
  const runnable = await loadGraph(execution.workflowVersionId, execution.triggerNodeId);
  if (!runnable) {
    await failExecution(execution, { ...timeoutError(execution, null, null, null), code: 'node_type_unknown', message: 'The graph of this run cannot be read.', details: {} });
    return false;
  }
  let current = true;
  /** Follows a step's outcome; the journal's list stays current only when the step simply ended. */
  const after = async (outcome: StepOutcome, nodeId?: string): Promise<Next> => {
    current = outcome.kind === 'done';
    return follow(execution, outcome, runnable, nodeId);
  };
  for (;;) {
    if (stop.aborted || overTime(execution, leaseStart)) return handleStop(execution, (stop.reason as StopReason) ?? 'run_timeout', null, runnable);
    if (!current) {
      if (journal.held.length > 0 && !(await db().$transaction((tx) => flushHeldSteps(tx, execution)))) return false;
      journal.steps = await loadSteps(execution.id);
      current = true;
    }
    const steps = journal.steps;
    const byNode = new Map(steps.map((step) => [step.nodeId, step]));

    const interrupted = steps.find((step) => step.status === 'running' && step.attemptStartedAt !== null);
    if (interrupted) {
      const next = await after(await settleInterrupted(execution, runnable.nodes.get(interrupted.nodeId), definitionOf(runnable, interrupted.nodeId), interrupted));
      current = false;
      if (next !== 'continue') return next;
      continue;
    }
    // A step saved as failed is one its onError did not catch (a caught one is saved succeeded): its
    // run fails with it. Found here only when the runner stopped between the step's write and the
    // run's; without this look the plan would see nothing left to run and call the run succeeded.
    const failedStep = steps.find((step) => step.status === 'failed');
    if (failedStep) {
      await failExecution(execution, await savedStepError(failedStep, runnable));
      return false;
    }
    // Its advancer kept dying between steps (no attempt open to blame): not advanced again.
    const crashLoop = runCrashLoop(execution);
    if (crashLoop) {
      await failExecution(execution, crashLoop);
      return false;
    }

    const now = Date.now();
    const dueRetry = steps.find((step) => step.status === 'running' && step.nextAttemptAt && step.nextAttemptAt.getTime() <= now + 50);
    if (dueRetry) {
      const next = await after(await runNode(execution, runnable, dueRetry.nodeId, dueRetry, steps, stop, null), dueRetry.nodeId);
      if (next !== 'continue') return next;
      continue;
    }

    const resumable = await findResumable(execution, steps);
    if (resumable) {
      const next = await after(await runNode(execution, runnable, resumable.step.nodeId, resumable.step, steps, stop, resumable.resume), resumable.step.nodeId);
      if (next !== 'continue') return next;
      continue;
    }

    const plan = planExecution(
      { nodes: runnable.graph.nodes, connections: runnable.graph.connections, triggerNodeId: runnable.triggerNodeId, runUntil: runnable.runUntil },
      new Map<string, PlanStep>(steps.map((step) => [step.nodeId, { status: step.status as StepStatus, output: step.output }])),
    );
    if (plan.skip.length > 0) {
      await writeSkippedSteps(execution, plan.skip.map((nodeId) => ({ nodeId, nodeType: runnable.nodes.get(nodeId)?.type ?? '' })), steps.length);
    }
    if (plan.ready.length > 0) {
      const nodeId = plan.ready[0];
      const next = await after(await runNode(execution, runnable, nodeId, byNode.get(nodeId) ?? null, steps, stop, null), nodeId);
      if (next !== 'continue') return next;
      continue;
    }
    if (plan.finished) {
      await succeedExecution(execution);
      return false;
    }
    return parkUntilNeeded(execution, steps);
  }
}

/** Nothing can run now: schedule the next look (a retry time, a wait's end) and let go. */
async function parkUntilNeeded(execution: ClaimedExecution, steps: StepRow[]): Promise<boolean> {
  const retryTimes = steps.filter((step) => step.status === 'running' && step.nextAttemptAt).map((step) => step.nextAttemptAt!.getTime());
  const waits = steps.filter((step) => step.status === 'waiting').map((step) => suspensionOf(step.state));
  const timerWaits = waits.filter((state) => state?.mode === 'waiting');
  if (retryTimes.length > 0) {
    await enqueue('execution.advance', { executionId: execution.id }, { jobKey: jobKeys.execution(execution.id), runAt: new Date(Math.min(...retryTimes)) });
    return false;
  }
  if (timerWaits.length > 0 && timerWaits.length === waits.length) {
    const untils = timerWaits.map((state) => (state?.until ? Date.parse(state.until) : null));
    const until = untils.includes(null) ? null : new Date(Math.min(...(untils as number[])));
    await suspendExecution(execution, until);
    if (until) await enqueue('execution.advance', { executionId: execution.id }, { jobKey: jobKeys.execution(execution.id), runAt: until });
    return false;
  }
  // Children still running: the last one to end wakes this execution.
  return false;
}

async function findResumable(execution: ClaimedExecution, steps: StepRow[]): Promise<{ step: StepRow; resume: NonNullable<Parameters<typeof runStep>[0]['resume']> } | null> {
  for (const step of steps) {
    if (step.status !== 'waiting') continue;
    const state = suspensionOf(step.state);
    if (step.decision !== null && step.decision !== undefined) return { step, resume: { reason: 'decision', payload: step.decision } };
    if (state?.mode === 'waiting' && state.until && Date.parse(state.until) <= Date.now()) return { step, resume: { reason: 'timer' } };
    if (state?.mode === 'children' && (await allChildrenFinished(execution.id, step.nodeId))) return { step, resume: { reason: 'children' } };
  }
  return null;
}

function definitionOf(runnable: RunnableGraph, nodeId: string): NodeDefinition | undefined {
  const node = runnable.nodes.get(nodeId);
  return node ? findNodeType(node.type, node.version) : undefined;
}

function inputsOf(runnable: RunnableGraph, nodeId: string, steps: StepRow[]): { input: Record<string, unknown>; nodes: Record<string, unknown> } {
  const byNode = new Map(steps.map((step) => [step.nodeId, step]));
  const nodes: Record<string, unknown> = {};
  for (const step of steps) if (step.status === 'succeeded') nodes[step.nodeId] = step.data;
  const input: Record<string, unknown> = {};
  for (const connection of runnable.graph.connections) {
    if (connection.to !== nodeId) continue;
    const source = byNode.get(connection.from);
    if (source?.status === 'succeeded' && source.output === connection.output) input[connection.input ?? 'main'] = source.data;
  }
  return { input, nodes };
}

async function runNode(
  execution: ClaimedExecution,
  runnable: RunnableGraph,
  nodeId: string,
  step: StepRow | null,
  steps: StepRow[],
  stop: AbortSignal,
  resume: { reason: 'timer' | 'children' | 'decision'; payload?: unknown } | null,
): Promise<StepOutcome> {
  const node = runnable.nodes.get(nodeId)!;
  const definition = findNodeType(node.type, node.version);
  const { input, nodes } = inputsOf(runnable, nodeId, steps);
  if (!definition) {
    const failure = new NodeFailure('node_type_unknown', { message: `The node type ${node.type} version ${node.version} is not known to this instance.` });
    const row = step ?? (await openUnknownTypeStep(execution.id, node, steps.length));
    return recordFailure({ execution, node, definition: { retry: undefined, effect: 'none', outputs: ['main'] } as unknown as NodeDefinition, step: row }, { id: row.id, persisted: true, attempt: 1, seq: steps.length, startedAt: new Date() }, failure, {});
  }
  const pin = execution.simulated ? runnable.graph.pins?.[nodeId] : undefined;
  if (!step && (node.disabled || pin)) {
    // A disabled node passes its input on; a pinned one (test runs) answers its pinned output.
    await writePassThroughStep(
      execution,
      node,
      { output: pin?.port ?? outputsOf(definition, node.params)[0] ?? 'main', data: pin ? pin.output : (input.main ?? null), pinned: Boolean(pin) },
      steps.length,
    );
    return { kind: 'done' };
  }
  const outcome = await runStep({
    execution,
    node,
    definition,
    step,
    input,
    nodes,
    stop,
    seq: steps.length,
    resume,
  });
  return outcome;
}

/** The run's error from a step saved as failed (the stored error, with the node's name for the incident). */
async function savedStepError(step: StepRow, runnable: RunnableGraph): Promise<ExecutionError> {
  const { error } = await db().executionStep.findUniqueOrThrow({ where: { id: step.id }, select: { error: true } });
  const node = runnable.nodes.get(step.nodeId);
  const stored = (error ?? {}) as Partial<ExecutionError>;
  return {
    code: stored.code ?? 'internal',
    message: stored.message ?? 'The step failed.',
    nodeId: step.nodeId,
    nodeName: node?.name ?? null,
    kind: stored.kind ?? 'permanent',
    attempts: stored.attempts ?? step.attempt,
    nodeType: stored.nodeType ?? node?.type ?? null,
    details: stored.details ?? {},
    at: stored.at ?? new Date().toISOString(),
  };
}

type Next = 'continue' | boolean;

async function follow(execution: ClaimedExecution, outcome: StepOutcome, runnable: RunnableGraph, nodeId?: string): Promise<Next> {
  switch (outcome.kind) {
    // The loop's next look decides what follows (a retry due now runs, a later one or a wait parks the run).
    case 'done':
    case 'later':
    case 'waiting':
    case 'children':
      return 'continue';
    case 'failed':
      await failExecution(execution, outcome.error);
      return false;
    case 'stopped':
      return handleStop(execution, outcome.reason, nodeId ?? null, runnable);
  }
}

async function handleStop(execution: ClaimedExecution, reason: StopReason, nodeId: string | null, runnable: RunnableGraph): Promise<boolean> {
  if (reason === 'run_timeout') {
    const node = nodeId ? runnable.nodes.get(nodeId) : undefined;
    await failExecution(execution, timeoutError(execution, node?.id ?? null, node?.name ?? null, node?.type ?? null));
  }
  return false;
}
