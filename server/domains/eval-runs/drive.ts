/**
 * Driving an evaluation run (task `eval.run`): its cases start in small batches as simulated
 * executions of the real engine (`simulated: true`: effects are recorded on the steps, never made;
 * no slot; `evalRunId` keeps them out of the executions list), and each case is filled from its
 * runs' steps when they end. State is in the database: a case is claimed `pending → running` and
 * finished `running → done` by conditional updates, so a second driver (a job re-queued while one
 * still runs) never starts a case twice, and a driver that stops is continued by the next job.
 *
 * Per case: a message is first checked against the trigger by mail dispatch's own rule
 * (`mailStartVerdicts`); only a match runs, and a case that does not run keeps why (`reason`: the
 * exclusion, guardrail or filter, as the message journal says it). The baseline `published` runs the published version
 * in simulation on the same case (its own trigger decides too); `journal` reads the real run of the
 * workflow on that message, if any. A run that waits (a wait node) is stopped there: its path ends
 * at the waiting node.
 *
 * Model calls (`callModels`): both versions' AI nodes call their model for real (so the comparison
 * is like for like), through the `ai` capability's budgets and usage. A spent budget fails the step
 * permanently: that case ends with `llm.budget_exceeded` and the others go on (a case that never
 * reaches an AI node is still worth its answer); the run ends `failed` with that error only when
 * every case whose version ran ended with it.
 */
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { emitToMember } from '../../core/realtime/emit';
import { cancelExecutionsIn, mailStartReasonOf, mailStartVerdicts, mailTriggerDataOf, roomForSlotlessRuns, startExecution, type MailStartReason } from '../../engine';
import { notTriggered, outcomesDiffer, type CaseOutcome } from './compare';
import { caseErrorOf, effectsOf } from './present';
import { cancelOpenCases, refreshCounters } from './repo';
import {
  beginQueuedRun,
  claimPendingCase,
  countRanAndFailedWith,
  countRunningCases,
  endRunningRun,
  failOpenRun,
  findCaseExecutions,
  findCaseMessage,
  findPendingCases,
  findRanSteps,
  findRealRunOnMessage,
  findRun,
  findRunningCases,
  findRunStatus,
  findVersionToRun,
  finishRunningCase,
  recordCaseStart,
  shareRunStatus,
} from './repo-drive';
import type { EvalCase, EvalRun, WorkflowVersion } from '../../generated/prisma/client';

/** Cases whose runs may be in progress at once. */
const casesInFlight = 8;
/** How long one job drives before it hands over to a fresh job. */
const budgetMs = 20_000;
const pollMs = 150;
const finalStatuses = new Set(['succeeded', 'failed', 'cancelled']);

type Version = Pick<WorkflowVersion, 'id' | 'graph' | 'triggerType' | 'triggerNodeId'>;

interface Context {
  run: EvalRun;
  version: Version;
  baselineVersion: Version | null;
}

/** Drives the run for a while. `again`: cases remain, queue the next job. */
export async function driveEvalRun(evalRunId: string, options: { budgetMs?: number } = {}): Promise<'done' | 'again'> {
  const deadline = Date.now() + (options.budgetMs ?? budgetMs);
  const begun = await beginQueuedRun(evalRunId);
  const initial = await findRun(evalRunId);
  if (!initial || initial.status !== 'running') return 'done';
  if (begun.count > 0) await emitToMember(initial.memberId, 'eval.progress', { evalRunId, workflowId: initial.workflowId, status: 'running', done: initial.done, total: initial.total });
  const version = await findVersionToRun(initial.versionId);
  const baselineVersion = initial.baselineVersionId ? await findVersionToRun(initial.baselineVersionId) : null;
  if (!version || (initial.baseline === 'published' && !baselineVersion)) {
    await failRun(initial, { code: 'workflow.version_not_found', message: 'The version to evaluate or compare with no longer exists.' });
    return 'done';
  }
  const context: Context = { run: initial, version, baselineVersion };
  for (;;) {
    const status = (await findRunStatus(evalRunId))?.status;
    if (status !== 'running') return 'done';
    await collectFinished(context);
    const running = await countRunningCases(evalRunId);
    const pending = await findPendingCases(evalRunId, Math.max(0, casesInFlight - running));
    for (const item of pending) await startCase(context, item);
    if (running === 0 && pending.length === 0) {
      await finishRun(context.run);
      return 'done';
    }
    if (Date.now() > deadline) return 'again';
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The run's row under FOR SHARE: a cancel (FOR UPDATE) waits for a starting case, and no case starts after a cancel. */
async function stillRunning(tx: Tx, evalRunId: string): Promise<boolean> {
  return (await shareRunStatus(tx, evalRunId)) === 'running';
}

async function startCase(context: Context, item: EvalCase): Promise<void> {
  const { run, version, baselineVersion } = context;
  await inRetriedTransaction(async (tx) => {
    if (!(await stillRunning(tx, run.id))) return;
    // Its runs hold no slot: they count under the member's cap on such runs, and the case stays
    // `pending` (the driver looks again at its next poll) until there is room for them.
    if (!(await roomForSlotlessRuns(tx, run.memberId, run.baseline === 'published' ? 2 : 1))) return;
    const claimed = await claimPendingCase(tx, item.id);
    if (claimed.count === 0) return;

    // Each version reads the message as its own trigger would (its `senderCard` says whether the sender's card is in it).
    let triggerData: (subject: Version) => Promise<Record<string, unknown>>;
    let message: { id: string; mailboxId: string; subject: string | null; fromName: string | null; fromEmail: string | null } | null = null;
    if (item.messageId) {
      message = await findCaseMessage(tx, run.memberId, item.messageId);
      if (!message) {
        await finishCase(tx, run, item.id, { ...notTriggered, error: { code: 'eval.message_gone', message: 'The message is no longer in the mirror.' } }, null, null);
        return;
      }
      const messageId = message.id;
      triggerData = async (subject) => (await mailTriggerDataOf(tx, messageId, { graph: subject.graph, triggerNodeId: subject.triggerNodeId })) ?? {};
    } else {
      const given = (item.triggerData ?? {}) as Record<string, unknown>;
      triggerData = async () => given;
    }
    // Given trigger data, or a version with another trigger: nothing to decide, it runs.
    const decides = async (subject: Version): Promise<{ triggered: boolean; reason: MailStartReason | null }> => {
      if (!message || subject.triggerType !== 'mail') return { triggered: true, reason: null };
      const [verdict] = (await mailStartVerdicts(tx, message.id, [{ graph: subject.graph, triggerNodeId: subject.triggerNodeId }])) ?? [];
      const reason = verdict ? mailStartReasonOf(verdict) : null;
      return { triggered: verdict?.kind === 'match', reason };
    };
    const start = async (subject: Version) =>
      startExecution(
        {
          memberId: run.memberId,
          workflowId: run.workflowId,
          workflowVersionId: subject.id,
          simulated: true,
          callModels: run.callModels,
          evalRunId: run.id,
          trigger: {
            type: subject.triggerType,
            nodeId: subject.triggerNodeId,
            data: await triggerData(subject),
            mailboxId: message?.mailboxId ?? null,
            messageId: message?.id ?? null,
            headline: message ? { subject: message.subject, fromName: message.fromName, fromEmail: message.fromEmail } : null,
          },
        },
        tx,
      );
    const { triggered, reason } = await decides(version);
    const baselineTriggered = run.baseline === 'published' && baselineVersion ? (await decides(baselineVersion)).triggered : false;
    const executionId = triggered ? (await start(version)).id : null;
    const baselineExecutionId = baselineTriggered && baselineVersion ? (await start(baselineVersion)).id : null;
    await recordCaseStart(tx, item.id, { triggered, executionId, baselineExecutionId, ...(reason ? { reason: { ...reason } } : {}) });
    // Nothing runs for this case: it is decided now.
    if (!executionId && !baselineExecutionId) await finishCase(tx, run, item.id, notTriggered, null, await journalOrNot(tx, run, item.messageId));
  });
}

/** The baseline of a case whose simulated runs are over: the published version's outcome, or the journal's. */
async function journalOrNot(tx: Tx, run: EvalRun, messageId: string | null): Promise<{ outcome: CaseOutcome; executionId: string | null } | null> {
  if (run.baseline === 'published') return { outcome: notTriggered, executionId: null };
  if (run.baseline !== 'journal' || !messageId) return null;
  const real = await findRealRunOnMessage(tx, run, messageId);
  if (!real) return { outcome: notTriggered, executionId: null };
  return { outcome: await outcomeOf(tx, real), executionId: real.id };
}

/** What a run did: the nodes that ran (in order), the effects of its steps, its error. */
async function outcomeOf(tx: Pick<Tx, 'executionStep'>, execution: { id: string; error: unknown }): Promise<CaseOutcome> {
  const steps = await findRanSteps(tx, execution.id);
  return { triggered: true, path: steps.map((step) => step.nodeId), effects: steps.flatMap((step) => effectsOf(step.effects)), error: caseErrorOf(execution.error) };
}

async function finishCase(
  tx: Tx,
  run: EvalRun,
  caseId: string,
  outcome: CaseOutcome,
  executionId: string | null,
  baseline: { outcome: CaseOutcome; executionId: string | null } | null,
): Promise<void> {
  const finished = await finishRunningCase(tx, caseId, {
    status: 'done',
    triggered: outcome.triggered,
    path: outcome.path,
    effects: outcome.effects,
    error: outcome.error ?? undefined,
    baseline: baseline ? (baseline.outcome as object) : undefined,
    ...(baseline?.executionId ? { baselineExecutionId: baseline.executionId } : {}),
    ...(executionId ? { executionId } : {}),
    changed: outcomesDiffer(outcome, baseline?.outcome ?? null),
    finishedAt: new Date(),
  });
  if (finished.count === 0) return;
  const progress = await refreshCounters(tx, run.id);
  if (progress) await emitToMember(run.memberId, 'eval.progress', { evalRunId: run.id, workflowId: run.workflowId, status: progress.status, done: progress.done, total: progress.total }, tx);
}

/** Cases whose runs have all ended are filled in; a run that waits is stopped where it waits. */
async function collectFinished(context: Context): Promise<void> {
  const { run } = context;
  const running = await findRunningCases(run.id);
  if (running.length === 0) return;
  const ids = running.flatMap((item) => [item.executionId, item.baselineExecutionId]).filter((id): id is string => id !== null);
  const executions = await findCaseExecutions(ids);
  const waiting = executions.filter((execution) => execution.status === 'waiting').map((execution) => execution.id);
  if (waiting.length > 0) {
    await inRetriedTransaction((tx) => cancelExecutionsIn(tx, run.memberId, waiting));
    for (const execution of executions) if (waiting.includes(execution.id)) execution.status = 'cancelled';
  }
  const byId = new Map(executions.map((execution) => [execution.id, execution]));
  const ended = (id: string | null) => id === null || finalStatuses.has(byId.get(id)?.status ?? 'succeeded');
  for (const item of running) {
    if (!ended(item.executionId) || !ended(item.baselineExecutionId)) continue;
    await inRetriedTransaction(async (tx) => {
      const own = item.executionId ? byId.get(item.executionId) : undefined;
      const outcome = own ? await outcomeOf(tx, own) : notTriggered;
      const theirs = item.baselineExecutionId ? byId.get(item.baselineExecutionId) : undefined;
      const baseline = theirs ? { outcome: await outcomeOf(tx, theirs), executionId: theirs.id } : await journalOrNot(tx, run, item.messageId);
      await finishCase(tx, run, item.id, outcome, null, baseline);
    });
  }
}

const budgetCode = 'llm.budget_exceeded';

/** With model calls: the budget's error when every case whose version ran ended with it (and one did). */
async function budgetFailure(tx: Tx, run: EvalRun): Promise<{ code: string; message: string } | null> {
  if (!run.callModels) return null;
  const counts = await countRanAndFailedWith(tx, run.id, budgetCode);
  if (!counts || counts.ran === 0 || counts.spent < counts.ran) return null;
  return { code: budgetCode, message: 'The AI budget was spent: no case could call its model.' };
}

async function finishRun(run: EvalRun): Promise<void> {
  await inRetriedTransaction(async (tx) => {
    const error = await budgetFailure(tx, run);
    const status = error ? 'failed' : 'succeeded';
    const moved = await endRunningRun(tx, run.id, status, error);
    if (moved.count === 0) return;
    const progress = await refreshCounters(tx, run.id);
    await emitToMember(run.memberId, 'eval.progress', { evalRunId: run.id, workflowId: run.workflowId, status, done: progress?.done ?? 0, total: progress?.total ?? 0 }, tx);
  });
}

async function failRun(run: EvalRun, error: { code: string; message: string }): Promise<void> {
  await inRetriedTransaction(async (tx) => {
    const moved = await failOpenRun(tx, run.id, error);
    if (moved.count === 0) return;
    await cancelOpenCases(tx, run.id);
    await emitToMember(run.memberId, 'eval.progress', { evalRunId: run.id, workflowId: run.workflowId, status: 'failed', done: run.done, total: run.total }, tx);
  });
}
