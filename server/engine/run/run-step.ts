import { randomUUID } from 'node:crypto';
/**
 * One attempt of one step: the step row moves to running, the executor runs with its resolved
 * parameters, its input and capabilities, under an AbortSignal that fires at the attempt timeout (a
 * timeout that really interrupts) or when the advancer must stop (cancel, lost lease, run timeout);
 * then the outcome is saved: succeeded (with its output port and bounded data), a next attempt
 * scheduled, a postponement (rate limit: no attempt consumed), a suspension, or a final failure that
 * the node's `onError` turns into a run failure, a `continue`, or the error port.
 */
import { engineComposition } from '../composition';
import type { GraphNode } from '../contract/graph';
import type { NodeDefinition, NodeResult } from '../contract/define-node';
import { childKindOf, outputsOf, writesStepField } from '../contract/define-node';
import { childRuns } from './children';
import { effectLedger } from './effects';
import { classifyFailure, NodeFailure, RateLimited } from '../contract/failures';
import type { ExecutionError } from './finish';
import { endCrashStreak, type ClaimedExecution } from './lease';
import { cutOff } from './step-journal';
import { resolveStepParams } from './params';
import { executionActor } from './actor';
import type { ExecutionActor } from '../../core/auth/access';
import { retryDelayMs, retrySettingsOf, shouldRetry } from './retry-policy';
import { asStepObject, boundStepData } from './step-data';
import { assertNodeTypeAllowed } from './allowed-node-types';
import { nodeStateOf, wrapSuspension, writeHeldEnds, writeStep, type StepRef, type StepRow } from './step-rows';
import type { Tx } from '../../core/db';
import { dropReplyWait, registerReplyWait } from '../dispatch/reply-waits';

export type StopReason = 'cancelled' | 'lease_lost' | 'run_timeout';

export type StepOutcome =
  | { kind: 'done' }
  | { kind: 'later'; at: Date }
  | { kind: 'waiting'; until: Date | null }
  | { kind: 'children' }
  | { kind: 'failed'; error: ExecutionError }
  | { kind: 'stopped'; reason: StopReason };

export interface AttemptHistoryEntry {
  attempt: number;
  at: string;
  code: string;
  message: string;
  kind: 'transient' | 'permanent';
  interrupted?: boolean;
  retried: boolean;
}

export interface StepRun {
  execution: ClaimedExecution;
  node: GraphNode;
  definition: NodeDefinition;
  /** The step row when it exists (a retry, a resume), or null for a first run. */
  step: StepRow | null;
  input: Record<string, unknown>;
  nodes: Record<string, unknown>;
  /** The advancer's stop signal: its reason is a StopReason. */
  stop: AbortSignal;
  seq: number;
  /** Set when the step resumes after a suspension. */
  resume: { reason: 'timer' | 'children' | 'decision'; payload?: unknown } | null;
}

class AttemptTimeout extends Error {}

/** A step's effects across its attempts: an effect a retry recognised (already done) is listed once. */
function mergeEffects(previous: object[], added: object[]): object[] {
  const seen = new Set(previous.map((effect) => JSON.stringify(effect)));
  const merged = [...previous];
  for (const effect of added) {
    const key = JSON.stringify(effect);
    if (!seen.has(key)) {
      seen.add(key);
      merged.push(effect);
    }
  }
  return merged;
}

function historyOf(step: StepRow | null): AttemptHistoryEntry[] {
  return Array.isArray(step?.attempts) ? (step.attempts as AttemptHistoryEntry[]) : [];
}

/** Whether this attempt may be written only when it ends (see StepRef, step-rows.ts). */
function deferrable(run: StepRun): boolean {
  const { definition } = run;
  return !run.step && run.execution.leaseTakeovers === 0 && definition.effect === 'none' && !definition.persistsStepFirst;
}

/**
 * The number of the attempt about to start. A resume continues the attempt it suspended; an
 * interruption of a node with no outside effect consumed no attempt (its history entry is
 * `interrupted` and `retried`), so the attempt after it keeps the number.
 */
function nextAttemptNumber(step: StepRow, consumeAttempt: boolean): number {
  if (!consumeAttempt) return Math.max(step.attempt, 1);
  const last = historyOf(step).at(-1);
  const kept = last?.interrupted === true && last.retried && last.attempt === step.attempt;
  return kept ? Math.max(step.attempt, 1) : step.attempt + 1;
}

/** Creates or updates the step row for this attempt (or defers it); returns the reference to write through. */
async function beginAttempt(run: StepRun, consumeAttempt: boolean): Promise<StepRef> {
  const now = new Date();
  if (!run.step) {
    const ref: StepRef = { id: randomUUID(), persisted: false, attempt: 1, seq: run.seq, startedAt: now };
    // A step before it that ended with an outside effect is written before this one computes anything (step-journal.ts,
    // "Held ends"); this step's own first write, when it has one, carries it.
    if (!deferrable(run)) await writeStep(run, ref, { status: 'running', attemptStartedAt: now }, { startsAttempt: true });
    else await writeHeldEnds(run.execution);
    return ref;
  }
  const attempt = nextAttemptNumber(run.step, consumeAttempt);
  const ref: StepRef = { id: run.step.id, persisted: true, attempt, seq: run.seq, startedAt: run.step.startedAt ?? now };
  await writeStep(run, ref, { status: 'running', attempt, attemptStartedAt: now, nextAttemptAt: null }, { announce: false, startsAttempt: true });
  return ref;
}

/** The error object of the spec (Execution error) for a failure of this step. */
export function stepError(run: Pick<StepRun, 'node'>, failure: NodeFailure, attempts: number): ExecutionError {
  return {
    code: failure.code,
    message: failure.message,
    nodeId: run.node.id,
    nodeName: run.node.name,
    kind: failure.kind,
    attempts,
    nodeType: run.node.type,
    details: failure.details,
    at: new Date().toISOString(),
  };
}

export async function runStep(saved: StepRun): Promise<StepOutcome> {
  // An engine nobody composed stops here, loudly, before the step is touched (composition.ts).
  engineComposition();
  // The node sees its own state, never the engine's wrapping of a suspension (step-rows.ts).
  const run: StepRun = saved.step ? { ...saved, step: { ...saved.step, state: nodeStateOf(saved.step.state) } } : saved;
  const outcome = await runAttempt(run);
  // A step cut off by a crash whose attempt now ended on its own (whatever its outcome): the crash was
  // not this run's doing, its streak ends (interruptions.ts).
  if (outcome.kind !== 'stopped' && cutOff(saved.step)) await endCrashStreak(run.execution);
  return outcome;
}

async function runAttempt(run: StepRun): Promise<StepOutcome> {
  const { execution, node, definition } = run;
  const settings = retrySettingsOf(node, definition.retry);
  const resuming = run.resume !== null;
  const scope = {
    trigger: execution.triggerData,
    input: run.input.main ?? null,
    nodes: run.nodes,
    execution: { id: execution.id, workflowId: execution.workflowId, simulated: execution.simulated },
    now: new Date().toISOString(),
  };
  // Written (unless deferrable) before anything of the member's runs: expressions, parameter checks, the executor.
  const ref = await beginAttempt(run, !resuming);
  let params: Awaited<ReturnType<typeof resolveStepParams>>;
  let actor: ExecutionActor;
  try {
    actor = await executionActor(execution);
    assertNodeTypeAllowed(node, actor);
    params = await resolveStepParams(definition, node.params, scope);
  } catch (thrown) {
    return recordFailure(run, ref, classifyFailure(thrown), {});
  }
  ref.input = params.masked;
  const { id: stepId, attempt } = ref;
  const started = Date.now();
  const ledger = effectLedger({ executionId: execution.id, nodeId: node.id, simulated: execution.simulated });
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new AttemptTimeout()), settings.timeoutMs);
  const forwardStop = () => {
    // A step calling a service when the run times out is not interrupted (spec, Limits).
    if (run.stop.reason === 'run_timeout' && definition.effect === 'external') return;
    controller.abort(run.stop.reason);
  };
  if (run.stop.aborted) forwardStop();
  else run.stop.addEventListener('abort', forwardStop, { once: true });
  try {
    const aborted = new Promise<never>((_, reject) => {
      // The catch below reads why from the signal itself.
      const onAbort = () => reject(new Error('The attempt was interrupted.'));
      if (controller.signal.aborted) onAbort();
      else controller.signal.addEventListener('abort', onAbort, { once: true });
    });
    const result: NodeResult = await Promise.race([
      definition.execute({
        params: params.value,
        input: run.input,
        nodes: run.nodes,
        trigger: (execution.triggerData as Record<string, unknown> | null) ?? null,
        execution: {
          id: execution.id,
          memberId: execution.memberId,
          workflowId: execution.workflowId,
          workflowVersionId: execution.workflowVersionId,
          simulated: execution.simulated,
          mailboxId: execution.mailboxId,
          messageId: execution.messageId,
          triggerType: execution.triggerType,
        },
        node: { id: node.id, name: node.name },
        attempt,
        signal: controller.signal,
        state: run.step?.state ?? null,
        resume: run.resume,
        effect: ledger.effect,
        capabilities: engineComposition().capabilities({ actor, simulated: execution.simulated, effectKeyPrefix: `${execution.id}:${node.id}`, workflowId: execution.workflowId, stepId, callModels: execution.callModels }),
        children: childRuns({ executionId: execution.id, stepId, nodeId: node.id, memberId: execution.memberId, simulated: execution.simulated, kind: childKindOf(definition) }),
        now: () => new Date(),
      }),
      aborted,
    ]);
    return await saveResult(run, ref, result, Date.now() - started, ledger.recorded);
  } catch (thrown) {
    const reason = controller.signal.aborted ? controller.signal.reason : null;
    if (reason === 'cancelled' || reason === 'lease_lost' || reason === 'run_timeout') {
      // The step stays open (a run timeout closes it as failed; a cancel leaves it as it was), written even when deferred.
      const open = ref.persisted ? {} : { attemptStartedAt: new Date(started) };
      await writeStep(run, ref, { status: 'running', durationMs: Date.now() - started, ...open }, { announce: !ref.persisted }).catch(() => {});
      return { kind: 'stopped', reason };
    }
    if (thrown instanceof RateLimited && !(reason instanceof AttemptTimeout)) {
      // Not a failure: the step waits for the time the service gave, and the attempt is given back.
      await writeStep(run, ref, { status: 'running', attempt: attempt - 1, attemptStartedAt: null, nextAttemptAt: thrown.retryAt }, { announce: !ref.persisted });
      return { kind: 'later', at: thrown.retryAt };
    }
    let failure: NodeFailure;
    if (reason instanceof AttemptTimeout) {
      failure =
        definition.effect === 'external'
          ? new NodeFailure('step_effect_uncertain', { message: `The attempt timed out after ${settings.timeoutMs} ms while calling a service; it may or may not have taken effect.` })
          : new NodeFailure('node_timeout', { message: `The attempt took longer than ${settings.timeoutMs} ms and was interrupted.` });
    } else {
      failure = classifyFailure(thrown);
    }
    return await recordFailure(run, ref, failure, { durationMs: Date.now() - started, effects: ledger.recorded });
  } finally {
    clearTimeout(timer);
    run.stop.removeEventListener('abort', forwardStop);
  }
}

async function saveResult(run: StepRun, ref: StepRef, result: NodeResult, durationMs: number, effects: { kind: string; description: string; simulated?: boolean }[]): Promise<StepOutcome> {
  const previousEffects = Array.isArray(run.step?.effects) ? (run.step.effects as object[]) : [];
  if (result.kind === 'suspend') {
    // The engine's view of the suspension (mode, deadline) goes in the same write as the status: a
    // runner that dies right after it leaves a step the next advancer knows how to resume.
    const state = wrapSuspension(result.mode, result.until, result.state ?? run.step?.state ?? null);
    // A wait for a reply is registered in the same transaction (../dispatch/reply-waits.ts).
    const watch = result.mode === 'waiting' ? result.watchReplies : undefined;
    const register = watch
      ? (tx: Tx) => registerReplyWait(tx, { executionId: run.execution.id, memberId: run.execution.memberId, nodeId: run.node.id, stepId: ref.id, messageId: watch.messageId })
      : undefined;
    await writeStep(run, ref, { status: 'waiting', attemptStartedAt: null, state: state as object, effects: mergeEffects(previousEffects, effects) }, { also: register });
    // Children that all ended already are seen by the advancer's next look (it checks them).
    if (result.mode === 'children') return { kind: 'children' };
    return { kind: 'waiting', until: result.until };
  }
  const bounded = boundStepData(asStepObject(result.data));
  const loop = writesStepField(run.definition, 'loop') ? (bounded.data as { loop?: unknown } | null)?.loop : undefined;
  await writeStep(run, ref, {
    status: 'succeeded',
    output: result.output ?? 'main',
    data: bounded.data as object,
    dataTruncated: bounded.dataTruncated,
    durationMs,
    effects: mergeEffects(previousEffects, [...effects, ...(result.effects ?? [])]),
    warnings: result.warnings ?? [],
    loop: loop === undefined ? undefined : (loop as object),
    attemptStartedAt: null,
    nextAttemptAt: null,
    finishedAt: new Date(),
  }, { also: endOfResumedStep(run), hold: true });
  return { kind: 'done' };
}

/** A resumed step that ends leaves no wait for a reply registered (its timer ended it, or a decision). */
function endOfResumedStep(run: Pick<StepRun, 'execution' | 'node'> & { resume?: StepRun['resume'] }): ((tx: Tx) => Promise<void>) | undefined {
  return run.resume ? (tx) => dropReplyWait(tx, run.execution.id, run.node.id) : undefined;
}

/**
 * A failed attempt: retried when temporary and attempts remain (the step stays `running` until its
 * next attempt), otherwise the node's `onError` decides. `interrupted` marks an attempt cut off by a
 * crash, found by the next advancer; `keptAttempt` an interruption that consumed no attempt (a node
 * with no outside effect): retried whatever attempts remain, after a delay that grows with the
 * step's interruptions (the crash-loop bound, not the attempts, ends those).
 */
export async function recordFailure(
  run: Pick<StepRun, 'execution' | 'node' | 'definition' | 'step'> & { resume?: StepRun['resume'] },
  ref: StepRef,
  failure: NodeFailure,
  extra: { durationMs?: number; effects?: object[]; interrupted?: boolean; keptAttempt?: { interruptions: number } },
): Promise<StepOutcome> {
  const attempt = ref.attempt;
  const settings = retrySettingsOf(run.node, run.definition.retry);
  const retry = extra.keptAttempt ? true : shouldRetry(failure.kind, attempt, settings);
  const history = [
    ...historyOf(run.step),
    { attempt, at: new Date().toISOString(), code: failure.code, message: failure.message, kind: failure.kind, ...(extra.interrupted ? { interrupted: true } : {}), retried: retry },
  ];
  const previousEffects = Array.isArray(run.step?.effects) ? (run.step.effects as object[]) : [];
  const effects = mergeEffects(previousEffects, extra.effects ?? []);
  if (retry) {
    const at = new Date(Date.now() + retryDelayMs(settings, extra.keptAttempt?.interruptions ?? attempt, { simulated: run.execution.simulated }));
    // A deferred first attempt is written now, `running` until its next attempt (announced once).
    await writeStep(run, ref, { status: 'running', attempts: history as object[], effects, attemptStartedAt: null, nextAttemptAt: at, durationMs: extra.durationMs }, { announce: !ref.persisted });
    return { kind: 'later', at };
  }
  const error = stepError(run, failure, attempt);
  const storedError = { code: error.code, message: error.message, nodeId: error.nodeId, kind: error.kind, attempts: error.attempts, nodeType: error.nodeType, details: error.details, at: error.at };
  const onError = run.node.onError;
  const failedLoop = writesStepField(run.definition, 'loop') ? (failure.details as { loop?: unknown }).loop : undefined;
  const caught = onError === 'continue' || onError === 'errorPort';
  const ports = outputsOf(run.definition, run.node.params);
  await writeStep(run, ref, {
      // A step caught by `continue` or `errorPort` counts as succeeded (spec).
      status: caught ? 'succeeded' : 'failed',
      output: onError === 'errorPort' ? 'error' : caught ? (ports[0] ?? 'main') : null,
      data: onError === 'errorPort' ? ({ error: storedError } as object) : undefined,
      error: storedError as object,
      // No AI provider could serve and the node continues: the step says the model was skipped (spec step field).
      llmSkipped: onError === 'continue' && failure.code === 'llm.no_provider' ? true : undefined,
      loop: failedLoop === undefined ? undefined : (failedLoop as object),
      attempts: history as object[],
      effects,
      durationMs: extra.durationMs,
      attemptStartedAt: null,
      nextAttemptAt: null,
      finishedAt: new Date(),
  }, { also: endOfResumedStep(run) });
  return caught ? { kind: 'done' } : { kind: 'failed', error };
}
