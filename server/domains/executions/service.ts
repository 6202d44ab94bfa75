/**
 * The member's executions and incidents: lists, detail, the summary, acknowledgement, and the cancel
 * and replay use cases (whose rules live in server/engine/run/cancel.ts and replay.ts).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { decodeCursor, pageOf } from '../../core/http/cursor';
import { iso } from '../../core/http/schemas';
import { cancelExecutions, cancelWorkflowExecutions, previewReplay, replayExecution, retryFailed } from '../../engine';
import type { AuthorizeReplay } from '../../engine';
import { assertGraphScopes } from '../workflows';
import { attachmentsOf, presentExecution, presentIncident, presentStep } from './present';
import {
  decodeWaitingCursor,
  encodeWaitingCursor,
  findExecutions,
  findIncidentAcknowledgement,
  findIncidents,
  findOwnedExecutionOrThrow,
  findOwnedWorkflowName,
  findOwnedWorkflowOrThrow,
  findSteps,
  findVersionGraph,
  findWaiting,
  markIncidentAcknowledged,
  memberOwnsMailbox,
  summaryByWorkflow,
} from './repo';
import { findUndoSummary } from './undo/summary';
import type { ListExecutionsQuery, ListIncidentsQuery, ListWaitingQuery, ReplayRequest } from './schemas';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Summary and retry-failed windows: 30 days at most, 24 hours by default (spec, Limits). */
const maxWindowMs = 30 * dayMs;
const defaultWindowMs = dayMs;

/** `since` clamped to [now - 30 days, now]; absent → now - 24 hours. */
export function clampSince(since: string | undefined, now = new Date()): Date {
  if (!since) return new Date(now.getTime() - defaultWindowMs);
  const asked = new Date(since).getTime();
  return new Date(Math.min(now.getTime(), Math.max(now.getTime() - maxWindowMs, asked)));
}

const periods = { '24h': dayMs, '7d': 7 * dayMs, '30d': 30 * dayMs } as const;

/** Newest first. The mailbox filter is intersected with the member's mailboxes. */
export async function listExecutions(actor: AuthenticatedActor, query: ListExecutionsQuery) {
  const memberId = actor.member.id;
  if (query.mailboxId && !(await memberOwnsMailbox(memberId, query.mailboxId))) return { executions: [], nextCursor: null };
  const rows = await findExecutions(
    memberId,
    {
      workflowId: query.workflowId,
      mailboxId: query.mailboxId,
      status: query.status,
      simulated: query.simulated === undefined ? undefined : query.simulated === 'true',
      acted: query.effects === undefined ? undefined : query.effects === 'with',
      q: query.q,
      loopIterations: query.loopIterations === undefined ? undefined : query.loopIterations === 'true',
      from: query.from === undefined ? undefined : new Date(query.from),
      to: query.to === undefined ? undefined : new Date(query.to),
    },
    decodeCursor(query.cursor),
    query.limit + 1,
  );
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.createdAt);
  return { executions: items.map(presentExecution), nextCursor };
}

export async function getExecution(actor: AuthenticatedActor, id: string) {
  const execution = await findOwnedExecutionOrThrow(actor.member.id, id);
  const [steps, workflow, undo] = await Promise.all([
    findSteps(id),
    findOwnedWorkflowName(actor.member.id, execution.workflowId),
    findUndoSummary(actor.member.id, id),
  ]);
  const triggerData = execution.triggerData;
  return {
    ...presentExecution(execution),
    workflowName: workflow?.name ?? '',
    triggerData: typeof triggerData === 'object' && triggerData !== null && !Array.isArray(triggerData) ? (triggerData as Record<string, unknown>) : null,
    steps: steps.map(presentStep),
    attachments: attachmentsOf(steps, triggerData),
    undo,
  };
}

/** Waiting runs by deadline (soonest first, no deadline last). */
export async function listWaiting(actor: AuthenticatedActor, query: ListWaitingQuery) {
  const found = await findWaiting(actor.member.id, decodeWaitingCursor(query.cursor), query.limit + 1);
  const page = found.slice(0, query.limit);
  const last = page[page.length - 1];
  const nextCursor = found.length > query.limit && last ? encodeWaitingCursor({ waitUntil: last.waitUntil, id: last.row.id }) : null;
  return { executions: page.map(({ row, waitUntil }) => ({ ...presentExecution(row), waitUntil: iso(waitUntil) })), nextCursor };
}

/** Live runs since the (clamped) `since`, in total and per workflow (most failures first). */
export async function summary(actor: AuthenticatedActor, query: { since?: string }) {
  const since = clampSince(query.since);
  const rows = await summaryByWorkflow(actor.member.id, since);
  const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const lastFailed = rows.reduce<Date | null>((latest, row) => (row.lastFailedAt && (!latest || row.lastFailedAt > latest) ? row.lastFailedAt : latest), null);
  const byWorkflow = rows
    .map((row) => ({ workflowId: row.workflowId, name: row.name ?? '', failed: row.failed, total: row.total, lastFailedAt: iso(row.lastFailedAt) }))
    .sort((a, b) => b.failed - a.failed || b.total - a.total || a.workflowId.localeCompare(b.workflowId));
  return {
    since: since.toISOString(),
    total: sum((row) => row.total),
    failed: sum((row) => row.failed),
    running: sum((row) => row.inProgress),
    succeeded: sum((row) => row.succeeded),
    lastFailedAt: iso(lastFailed),
    byWorkflow,
  };
}

export async function listIncidents(actor: AuthenticatedActor, query: ListIncidentsQuery) {
  const rows = await findIncidents(
    actor.member.id,
    { since: query.since ? new Date(query.since) : undefined, unacknowledged: query.unacknowledged === 'true' },
    decodeCursor(query.cursor),
    query.limit + 1,
  );
  const { items, nextCursor } = pageOf(rows, query.limit, (row) => row.failedAt);
  return { items: items.map(presentIncident), nextCursor };
}

/** Idempotent: the first instant is kept. Another member's incident is 404 `incident.not_found`. */
export async function acknowledgeIncident(actor: AuthenticatedActor, id: string) {
  const memberId = actor.member.id;
  await markIncidentAcknowledged(memberId, id);
  const row = await findIncidentAcknowledgement(memberId, id);
  if (!row?.acknowledgedAt) throw appError('incident.not_found');
  return { acknowledgedAt: row.acknowledgedAt.toISOString() };
}

export function cancelList(actor: AuthenticatedActor, ids: string[]) {
  return cancelExecutions(actor.member.id, ids).then(({ cancelled, skipped }) => ({ cancelled, skipped }));
}

/** Cancels one run; an already finished one is 409 `execution.not_cancellable`. */
export async function cancelOne(actor: AuthenticatedActor, id: string) {
  const outcome = await cancelExecutions(actor.member.id, [id]);
  const skipped = outcome.skipped[0];
  if (skipped?.reason === 'not_found') throw appError('execution.not_found');
  if (skipped) throw appError('execution.not_cancellable');
  return { id, status: 'cancelled' as const, cancelledChildren: outcome.cancelledChildren };
}

export async function cancelWorkflow(actor: AuthenticatedActor, workflowId: string, limit: number) {
  await findOwnedWorkflowOrThrow(actor.member.id, workflowId);
  return cancelWorkflowExecutions(actor.member.id, workflowId, limit);
}

/** A replay through a key runs a version for real: the key needs that version's scopes (issue 18, item 4). */
const versionScopes =
  (actor: AuthenticatedActor): AuthorizeReplay =>
  (version, tx) =>
    assertGraphScopes(actor, version.graph, tx);

export function replay(actor: AuthenticatedActor, id: string, request: ReplayRequest) {
  const options = { from: request.from, version: request.version };
  return request.dryRun ? previewReplay(actor.member.id, id, options, versionScopes(actor)) : replayExecution(actor.member.id, id, options, versionScopes(actor));
}

export async function retryFailedRuns(
  actor: AuthenticatedActor,
  workflowId: string,
  input: { limit: number; since?: string; period?: keyof typeof periods; from: 'start' | 'failed_step' },
) {
  const workflow = await findOwnedWorkflowOrThrow(actor.member.id, workflowId);
  // Every replay runs the published version: refused as a whole, before any starts, when a key lacks its scopes.
  const published = workflow.publishedVersionId ? await findVersionGraph(workflow.publishedVersionId) : null;
  if (published) await assertGraphScopes(actor, published.graph, db());
  const since = input.period ? new Date(Date.now() - periods[input.period]) : clampSince(input.since);
  const outcome = await retryFailed(actor.member.id, workflowId, { limit: input.limit, since, from: input.from, authorize: versionScopes(actor) });
  return { ...outcome, since: since.toISOString() };
}
