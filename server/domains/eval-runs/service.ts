/**
 * Evaluation runs: start (a snapshot of the draft or a chosen version, its cases picked at once),
 * read, list, cases, cancel. The runner's `eval.run` task drives a run (server/domains/eval-runs/drive.ts): simulated
 * executions of the real engine, never a real effect, compared with the baseline.
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { isUuid } from '../../core/ids';
import type { Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { appError } from '../../core/errors/app-error';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import { emitToMember } from '../../core/realtime/emit';
import { cancelExecutionsIn, forbiddenNodeTypesFor, triggerFactsOf } from '../../engine';
import { draftOf, assertGraphsScopes, needFor, assertValidGraph, findOwnedOrThrow, lockOwnedOrThrow } from '../workflows';
import { enforceBudget } from '../llm';
import type { EvalRun } from '../../generated/prisma/client';
import { presentEvalCase, presentEvalRun } from './present';
import * as repo from './repo';
import { evalBounds, finishedEvalStatuses, maxReasonGroups, type Baseline, type ListCasesQuery, type StartEvalInput } from './schemas';

type StoredSource = { kind: 'recent'; limit: number } | { kind: 'range'; from: string; to: string; limit: number } | { kind: 'trigger_data'; count: number };

/** The version evaluated: the one asked for (of this workflow), else a number-less snapshot of the draft. */
async function versionToEvaluate(tx: Tx, actor: AuthenticatedActor, workflow: Awaited<ReturnType<typeof findOwnedOrThrow>>, versionId: string | undefined) {
  if (versionId !== undefined) {
    const version = isUuid(versionId) ? await repo.findWorkflowVersion(tx, workflow.id, versionId.toLowerCase()) : null;
    if (!version) throw appError('workflow.version_not_found');
    return version;
  }
  const draft = draftOf(workflow);
  assertValidGraph(draft, forbiddenNodeTypesFor(actor.member.role));
  const id = randomUUID();
  return repo.insertDraftSnapshot(tx, { id, workflowId: workflow.id, number: null, graph: { ...draft, id, workflowId: workflow.id } as object, note: 'evaluation', ...triggerFactsOf(draft), createdBy: actor.member.id });
}

export async function startEvalRun(actor: AuthenticatedActor, input: StartEvalInput) {
  const memberId = actor.member.id;
  const source = input.source ?? { kind: 'recent' as const, limit: evalBounds.defaultMessages };
  if (source.kind === 'trigger_data') {
    const tooLarge = source.items.findIndex((item) => Buffer.byteLength(JSON.stringify(item)) > evalBounds.maxItemBytes);
    if (tooLarge >= 0) throw appError('workflow.trigger_data_too_large', { details: { maxBytes: evalBounds.maxItemBytes, index: tooLarge } });
  }
  // Model calls asked for with a budget already spent: refused now (402) rather than case by case.
  if (input.callModels) await enforceBudget(memberId);
  return inRetriedTransaction(async (tx) => {
    // One evaluation of a workflow at a time: the workflow row serialises concurrent starts.
    const workflow = await lockOwnedOrThrow(memberId, input.id, tx);
    const active = await repo.activeRunOf(workflow.id, tx);
    if (active) throw appError('eval.already_running', { details: { evalRunId: active.id } });
    const baseline: Baseline = input.baseline ?? (workflow.publishedVersionId ? 'published' : 'none');
    if (baseline === 'published' && !workflow.publishedVersionId) throw appError('workflow.not_published');
    const version = await versionToEvaluate(tx, actor, workflow, input.versionId);
    // Both versions run on the member's mail through this caller: a key needs the scopes of each.
    const baselineVersion = baseline === 'published' ? await repo.findVersionGraph(tx, workflow.publishedVersionId!) : null;
    // The `journal` baseline shows the member's real runs on each message (their path, effects, errors): executions:read.
    const journal = baseline === 'journal' ? [needFor('executions:read', 'journal_baseline')] : [];
    await assertGraphsScopes(actor, [version.graph, ...(baselineVersion ? [baselineVersion.graph] : [])], tx, journal);

    let stored: StoredSource;
    let cases: { index: number; messageId: string | null; triggerData: object | undefined; headline: object | undefined }[];
    if (source.kind === 'trigger_data') {
      stored = { kind: 'trigger_data', count: source.items.length };
      cases = source.items.map((item, index) => ({ index, messageId: null, triggerData: item as object, headline: undefined }));
    } else {
      if (version.triggerType !== 'mail') throw appError('eval.source_unsupported', { details: { triggerType: version.triggerType } });
      const window = source.kind === 'range' ? { from: new Date(source.from), to: new Date(source.to) } : {};
      const messages = await repo.findCaseMessages(tx, memberId, version.triggerMailboxIds, window, source.limit);
      if (messages.length === 0) throw appError('eval.no_cases');
      stored = source.kind === 'range' ? { kind: 'range', from: new Date(source.from).toISOString(), to: new Date(source.to).toISOString(), limit: source.limit } : { kind: 'recent', limit: source.limit };
      cases = messages.map((message, index) => ({
        index,
        messageId: message.id,
        triggerData: undefined,
        headline: { subject: message.subject, fromName: message.fromName, fromEmail: message.fromEmail },
      }));
    }

    const run = await repo.insertRunWithCases(
      tx,
      {
        memberId,
        workflowId: workflow.id,
        versionId: version.id,
        baseline,
        baselineVersionId: baseline === 'published' ? workflow.publishedVersionId : null,
        source: stored,
        total: cases.length,
        callModels: input.callModels === true,
      },
      cases,
    );
    await enqueue('eval.run', { evalRunId: run.id }, { jobKey: jobKeys.evalRun(run.id) }, tx);
    await emitToMember(memberId, 'eval.progress', { evalRunId: run.id, workflowId: workflow.id, status: run.status, done: 0, total: run.total }, tx);
    return { evalRun: presentEvalRun(run) };
  });
}

/** The runs as the API shows them, with the cost of their model calls. */
async function presentRuns(memberId: string, rows: EvalRun[], tx?: Tx) {
  const [costs, reasons] = await Promise.all([repo.modelCostsOf(memberId, rows, tx), repo.reasonCountsOf(rows.map((row) => row.id), maxReasonGroups, tx)]);
  return rows.map((row) => presentEvalRun(row, costs.get(row.id), reasons.get(row.id)));
}

export async function getEvalRun(actor: AuthenticatedActor, id: string) {
  const [evalRun] = await presentRuns(actor.member.id, [await repo.findOwnedRunOrThrow(actor.member.id, id)]);
  return { evalRun };
}

/** The workflow's latest evaluation runs, newest first. */
export async function listEvalRuns(actor: AuthenticatedActor, input: { id: string; limit: number }) {
  const workflow = await findOwnedOrThrow(actor.member.id, input.id);
  const rows = await repo.latestRuns(actor.member.id, workflow.id, input.limit);
  return { evalRuns: await presentRuns(actor.member.id, rows) };
}

/** Cases in their order (newest message first), a cursor page. */
export async function listEvalCases(actor: AuthenticatedActor, query: ListCasesQuery) {
  const run = await repo.findOwnedRunOrThrow(actor.member.id, query.id);
  const rows = await repo.findCases(
    run.id,
    { changed: query.changed === undefined ? undefined : query.changed === 'true', outcome: query.outcome },
    repo.decodeCaseCursor(query.cursor),
    query.limit + 1,
  );
  const items = rows.slice(0, query.limit);
  const last = items[items.length - 1];
  return { cases: items.map(presentEvalCase), nextCursor: rows.length > query.limit && last ? repo.encodeCaseCursor(last.index) : null };
}

/**
 * Cancels a queued or running evaluation: its runs in progress are cancelled, cases not done are
 * `cancelled`; what is done stays. A finished one is 409 `eval.not_cancellable`.
 */
export async function cancelEvalRun(actor: AuthenticatedActor, id: string) {
  const memberId = actor.member.id;
  return inRetriedTransaction(async (tx) => {
    const found = await repo.findOwnedRunOrThrow(memberId, id, tx);
    // The runner takes this row FOR SHARE before it starts a case: no case starts after this lock.
    const locked = await repo.lockRunStatus(tx, found.id);
    if (!locked || finishedEvalStatuses.includes(locked.status)) throw appError('eval.not_cancellable');
    const open = await repo.findRunningCaseRuns(tx, found.id);
    const executionIds = open.flatMap((item) => [item.executionId, item.baselineExecutionId]).filter((value): value is string => value !== null);
    if (executionIds.length > 0) await cancelExecutionsIn(tx, memberId, executionIds);
    await repo.cancelOpenCases(tx, found.id);
    await repo.markRunCancelled(tx, found.id);
    const progress = await repo.refreshCounters(tx, found.id);
    await emitToMember(memberId, 'eval.progress', { evalRunId: found.id, workflowId: found.workflowId, status: 'cancelled', done: progress?.done ?? 0, total: progress?.total ?? 0 }, tx);
    const [evalRun] = await presentRuns(memberId, [await repo.findRunOrThrow(tx, found.id)], tx);
    return { evalRun };
  });
}
