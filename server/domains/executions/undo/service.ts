/**
 * Undoing a finished run's mailbox changes (issue 24 §4): the preview, the undo of one run, the bulk
 * undo of a workflow's runs in a window. What is undone and what is skipped: ./plan.ts.
 *
 * - Every change goes through the webmail's own single-message action (`actOnMessage`: the mirror, the
 *   `mail_operations` row the runner applies to the real mailbox, the live event), with a client token
 *   per effect record (`undo:<sha256 of its key>`), so an undo repeated after a crash answers the first
 *   operation instead of acting twice; a draft is discarded by the review queue's own reject.
 * - Once per run: the first call claims `execution_undos`, appends each item as it is made, then keeps
 *   the answer (and the audit entry `execution.undone`) in one transaction; every later call answers
 *   that result (`replayed: true`). A call meeting a claim held by another is 409
 *   `execution.undo_in_progress`; a claim whose holder died (not renewed for 2 minutes) is taken over,
 *   the items it made counted as made (those it recorded, and an action it made but did not record,
 *   found by its client token).
 * - Only a finished live top-level run (409 `execution.not_undoable`: `not_finished`, `test_run`,
 *   `called_run` with the run to undo instead, `too_many_effects`); another member's run is 404.
 * - A key needs `messages:read` for the preview, `messages:write` for the undo, and `review:write`
 *   when a draft is to be discarded (403 `api_key.scope_missing`), besides the route's executions scope.
 */
import { createHash } from 'node:crypto';
import { authorize, type AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, recordAudit } from '../../../core/audit';
import { db } from '../../../core/db';
import { AppError, appError } from '../../../core/errors/app-error';
import { iso } from '../../../core/http/schemas';
import { isUuid } from '../../../core/ids';
import { actOnMessage, findFolderKeysOfMailboxes, findFoldersByMessageIdHeader, findMessageHeadlines, findMessageStates, findUsedClientTokens } from '../../mail';
import { findItemStates, rejectReviewItem } from '../../review';
import { findOwnedExecutionOrThrow, findOwnedWorkflowOrThrow } from '../repo';
import { appendUndoItem, claimUndo, findRunsToUndo, findRunTreeEffects, findUndo, finishUndo, undoClaimLeaseSeconds, type RunToUndo, type UndoRow } from '../repo-undo';
import { namedByRecords, planUndo, type SentItem, type UndoItem, type UndoPlan } from './plan';
import { presentHeadline } from '../present';
import type { BulkUndoInput } from './schemas';

/** Effect records of one run tree an undo reads at most; a larger run is refused (`too_many_effects`). */
export const maxUndoEffects = 1000;

/** The reason kept on a draft the undo rejects (the review queue shows it). */
const discardReason = 'Undone with the run that made it.';

const finishedStatuses = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * A planned item with the subject of the message or draft it names: what the member recognises it by
 * (null when neither the mirror nor the run's triggering email knows it).
 */
export interface DescribedUndoItem extends UndoItem {
  subject: string | null;
}

export interface DescribedUndoPlan extends Omit<UndoPlan, 'items'> {
  items: DescribedUndoItem[];
}

export interface UndoResultItem extends Omit<DescribedUndoItem, 'status' | 'reason'> {
  status: 'undone' | 'skipped' | 'failed';
  reason: string | null;
}

function notUndoable(reason: string, details: Record<string, unknown> = {}): AppError {
  return appError('execution.not_undoable', { details: { reason, ...details } });
}

async function undoTarget(actor: AuthenticatedActor, id: string) {
  if (!isUuid(id)) throw appError('execution.not_found');
  const run = await findOwnedExecutionOrThrow(actor.member.id, id);
  if (run.simulated || run.evalRunId) throw notUndoable('test_run');
  if (run.parentExecutionId) throw notUndoable('called_run', { parentExecutionId: run.parentExecutionId });
  if (!finishedStatuses.has(run.status)) throw notUndoable('not_finished', { status: run.status });
  return run;
}

type UndoTarget = Awaited<ReturnType<typeof undoTarget>>;

/** The run tree's records and, as they are now, what they name, planned; each item with its subject. */
async function planOf(memberId: string, run: UndoTarget, done?: ReadonlySet<string>): Promise<DescribedUndoPlan> {
  const records = await findRunTreeEffects(run.id, maxUndoEffects + 1);
  if (records.length > maxUndoEffects) throw notUndoable('too_many_effects', { limit: maxUndoEffects });
  const named = namedByRecords(records);
  const [messages, folders, outbound, headlines] = await Promise.all([
    findMessageStates(memberId, named.messageIds),
    findFolderKeysOfMailboxes(memberId, named.mailboxIds),
    findItemStates(memberId, named.outboundIds),
    findMessageHeadlines(named.messageIds, [memberId]),
  ]);
  const mirrored = new Set(messages.map((message) => message.id));
  const plan = planUndo(records, {
    messages: new Map(messages.map((message) => [message.id, message])),
    relocated: await relocatedOf(memberId, named.headers, mirrored),
    folders,
    outbound: new Map(outbound.map((item) => [item.id, { id: item.id, reviewStatus: item.reviewStatus, sendStatus: item.sendStatus, to: item.toAddrs, subject: item.subject }])),
    ...(done ? { done } : {}),
  });
  // A message gone from the mirror is most often the run's own triggering email: its headline names it.
  const subjects = new Map<string, string | null>(headlines.map((row) => [row.id, row.subject]));
  if (run.messageId && !subjects.has(run.messageId)) subjects.set(run.messageId, presentHeadline(run.messageHeadline)?.subject ?? null);
  for (const item of outbound) subjects.set(item.id, item.subject);
  const subjectOf = (item: UndoItem) => subjects.get(item.messageId ?? item.outboundId ?? '') ?? null;
  return { ...plan, items: plan.items.map((item) => ({ ...item, subject: subjectOf(item) })) };
}

/** Messages gone under their id, found again by their Message-ID in their mailbox: where they are now. */
async function relocatedOf(memberId: string, headers: Map<string, { mailboxId: string; messageIdHeader: string }>, mirrored: ReadonlySet<string>): Promise<Map<string, string>> {
  const missing = [...headers].filter(([id]) => !mirrored.has(id));
  const found = await findFoldersByMessageIdHeader(memberId, missing.map(([, wanted]) => wanted));
  const relocated = new Map<string, string>();
  for (const [id, wanted] of missing) {
    const row = found.find((candidate) => candidate.mailboxId === wanted.mailboxId && candidate.messageIdHeader === wanted.messageIdHeader);
    if (row) relocated.set(id, row.folderKey);
  }
  return relocated;
}

const counted = <T extends { status: string }>(items: T[], status: T['status']) => items.filter((item) => item.status === status).length;

export async function previewUndo(actor: AuthenticatedActor, id: string) {
  authorize({ kind: 'scope', scope: 'messages:read' }, actor);
  const run = await undoTarget(actor, id);
  const [plan, previous] = await Promise.all([planOf(actor.member.id, run), findUndo(actor.member.id, id)]);
  return {
    executionId: id,
    items: plan.items,
    sent: plan.sent,
    others: plan.others,
    counts: { willUndo: counted(plan.items, 'will_undo'), skip: counted(plan.items, 'skip'), sent: plan.sent.length },
    undoneAt: previous?.status === 'done' ? iso(previous.finishedAt) : null,
  };
}

function presentUndo(executionId: string, items: UndoResultItem[], sent: SentItem[], undoneAt: Date, replayed: boolean) {
  return {
    executionId,
    items,
    sent,
    counts: { undone: counted(items, 'undone'), skipped: counted(items, 'skipped'), failed: counted(items, 'failed'), sent: sent.length },
    undoneAt: iso(undoneAt),
    replayed,
  };
}

/** A kept answer: its arrays as stored (written by this file only; items kept before subjects were added have none). */
function presentStored(executionId: string, row: UndoRow) {
  const items = (row.items as UndoResultItem[]).map((item) => ({ ...item, subject: item.subject ?? null }));
  return presentUndo(executionId, items, row.sent as SentItem[], row.finishedAt ?? row.claimedAt, true);
}

/** `undo:` and the record key's SHA-256: a client token of the webmail's grammar, one per record. */
export function undoTokenOf(effectKey: string): string {
  return `undo:${createHash('sha256').update(effectKey).digest('hex')}`;
}

/** Makes one planned item; the mailbox's refusal (a folder gone, a mailbox disconnected) is the item's failure. */
async function makeItem(actor: AuthenticatedActor, item: DescribedUndoItem): Promise<UndoResultItem> {
  const { status, reason, ...rest } = item;
  if (status === 'skip' || !item.action) return { ...rest, status: 'skipped', reason };
  try {
    if (item.action.kind === 'message') {
      const { messageId, action, folder, labels } = item.action;
      await actOnMessage(actor.member.id, { messageId, action, folder, labels, clientToken: undoTokenOf(item.effectKey) });
    } else {
      await rejectReviewItem(actor, { id: item.action.outboundId, reason: discardReason });
    }
    return { ...rest, status: 'undone', reason: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const refusal = typeof error.details.reason === 'string' ? error.details.reason : error.code;
    return { ...rest, status: 'failed', reason: refusal };
  }
}

/** Scopes the plan needs of a key: the mailbox always, the review queue when a draft is discarded. */
function authorizePlan(actor: AuthenticatedActor, plan: DescribedUndoPlan): void {
  authorize({ kind: 'scope', scope: 'messages:write' }, actor);
  if (plan.items.some((item) => item.status === 'will_undo' && item.action?.kind === 'discard_draft')) authorize({ kind: 'scope', scope: 'review:write' }, actor);
}

export async function undoRun(actor: AuthenticatedActor, id: string, ip?: string | null) {
  const memberId = actor.member.id;
  authorize({ kind: 'scope', scope: 'messages:write' }, actor);
  const run = await undoTarget(actor, id);
  const previous = await findUndo(memberId, id);
  if (previous?.status === 'done') return presentStored(id, previous);
  let plan = await planOf(memberId, run);
  authorizePlan(actor, plan);
  const claim = await claimUndo(memberId, id, actor.kind === 'apiKey' ? actor.keyId : null);
  if (!claim) {
    const current = await findUndo(memberId, id);
    if (current?.status === 'done') return presentStored(id, current);
    throw appError('execution.undo_in_progress', { details: { retryAfterSeconds: undoClaimLeaseSeconds } });
  }
  // A take-over: what the previous holder made counts as made (its items, and an action it made but
  // died before recording, known by its client token), and the plan compares from there.
  const made = Array.isArray(claim.items) ? (claim.items as UndoResultItem[]) : [];
  const tokens = plan.items.filter((item) => item.action?.kind === 'message').map((item) => undoTokenOf(item.effectKey));
  const used = await findUsedClientTokens(memberId, tokens);
  const done = new Set([
    ...made.filter((item) => item.status === 'undone').map((item) => item.effectKey),
    ...plan.items.filter((item) => used.has(undoTokenOf(item.effectKey))).map((item) => item.effectKey),
  ]);
  if (done.size > 0) plan = await planOf(memberId, run, done);
  const madeKeys = new Set(made.map((item) => item.effectKey));
  const items = [...made];
  for (const planned of plan.items) {
    if (madeKeys.has(planned.effectKey)) continue;
    const result = await makeItem(actor, planned);
    await appendUndoItem(id, result);
    items.push(result);
  }
  const finished = await db().$transaction(async (tx) => {
    const row = await finishUndo(tx, id, { items, sent: plan.sent });
    const counts = { undone: counted(items, 'undone'), skipped: counted(items, 'skipped'), failed: counted(items, 'failed'), sent: plan.sent.length };
    await recordAudit(auditByOf(actor), { action: 'execution.undone', targetKind: 'execution', targetId: id, details: counts, ip: ip ?? null }, tx);
    return row;
  });
  return presentUndo(id, items, plan.sent, finished.finishedAt ?? new Date(), false);
}

async function bulkOne(actor: AuthenticatedActor, run: RunToUndo, dryRun: boolean, ip: string | null | undefined) {
  // What the member recognises the run by, in the per-run list.
  const executionId = run.id;
  const known = { executionId, createdAt: iso(run.createdAt), subject: presentHeadline(run.messageHeadline)?.subject ?? null };
  try {
    if (dryRun) {
      const preview = await previewUndo(actor, executionId);
      return { ...known, outcome: 'preview' as const, counts: { undone: preview.counts.willUndo, skipped: preview.counts.skip, failed: 0, sent: preview.counts.sent }, error: null };
    }
    const answer = await undoRun(actor, executionId, ip);
    return { ...known, outcome: answer.replayed ? ('already_undone' as const) : ('undone' as const), counts: answer.counts, error: null };
  } catch (error) {
    // A key's missing scope refuses the whole call, not one run.
    if (!(error instanceof AppError) || error.code === 'api_key.scope_missing') throw error;
    const reason = typeof error.details.reason === 'string' ? error.details.reason : null;
    return { ...known, outcome: 'refused' as const, counts: null, error: { code: error.code, reason } };
  }
}

/**
 * The workflow's finished live runs created in the window that acted and are not undone yet, newest
 * first, `limit` per call: each undone (or previewed) as the single route does. A run refused (a claim
 * held by another call) is reported and the others go on.
 */
export async function undoWorkflowRuns(actor: AuthenticatedActor, workflowId: string, input: BulkUndoInput, ip?: string | null) {
  authorize({ kind: 'scope', scope: input.dryRun ? 'messages:read' : 'messages:write' }, actor);
  if (!isUuid(workflowId)) throw appError('workflow.not_found');
  await findOwnedWorkflowOrThrow(actor.member.id, workflowId);
  const window = { from: new Date(input.from), to: input.to ? new Date(input.to) : new Date() };
  const found = await findRunsToUndo(actor.member.id, workflowId, window, input.limit + 1);
  const runs: Awaited<ReturnType<typeof bulkOne>>[] = [];
  for (const run of found.slice(0, input.limit)) runs.push(await bulkOne(actor, run, input.dryRun, ip));
  const total = (key: 'undone' | 'skipped' | 'failed' | 'sent') => runs.reduce((sum, run) => sum + (run.counts?.[key] ?? 0), 0);
  return {
    count: runs.length,
    hasMore: found.length > input.limit,
    dryRun: input.dryRun,
    runs,
    totals: { undone: total('undone'), skipped: total('skipped'), failed: total('failed'), sent: total('sent') },
  };
}
