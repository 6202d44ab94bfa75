/**
 * Replaying a run (spec, Errors → Replay rules): a failed or cancelled live run runs again for real
 * with the same trigger data, as a new execution linked to the original (`retryOfExecutionId`).
 *
 * - From the start (default): every live effect happens again. From the failed step: the original's
 *   succeeded steps (steps caught by `continue`/`errorPort` are stored as succeeded) are copied by
 *   node id into the new run (`copiedFrom`), for nodes that still exist in the chosen version; the
 *   advancer treats them as done, so a kept node keeps its original output even if its parameters
 *   changed, and a new node runs.
 * - Version: the workflow's published version (default) or the original version that ran.
 * - Refused (409 `execution.not_replayable`, `details.reason`) for a test run, a run in progress or
 *   succeeded, an archived or deleted workflow, an unavailable version, the original run's mailbox
 *   disconnected or gone, and a triggering sender now excluded (organisation or member).
 * - A dry run checks the same rules and lists the effects that would happen again, creating nothing.
 */
import type { Execution, ExecutionStep, Workflow, WorkflowVersion } from '../../generated/prisma/client';
import { db, type Tx } from '../../core/db';
import { inRetriedTransaction } from '../../core/db/retry';
import { appError } from '../../core/errors/app-error';
import { findNodeType } from '../nodes/registry';
import { startExecution } from './start';
import { copyReplayedSteps } from './step-rows';

export type ReplayFrom = 'start' | 'failed_step';
export type ReplayVersion = 'published' | 'original';

export const replayRefusals = [
  'simulated',
  'in_progress',
  'succeeded',
  'workflow_deleted',
  'workflow_archived',
  'version_unavailable',
  'mailbox_disconnected',
  'sender_excluded',
] as const;
export type ReplayRefusal = (typeof replayRefusals)[number];

export interface ReplayRequest {
  from: ReplayFrom;
  version: ReplayVersion;
}

/**
 * The caller's own say on the version a replay would run, once the refusal rules passed: it throws to
 * refuse (an API key lacking the version's scopes: server/domains/workflows/graph-scopes.ts).
 */
export type AuthorizeReplay = (version: WorkflowVersion, tx: Tx) => Promise<void>;

export interface EffectPreview {
  nodeId: string;
  nodeName: string;
  kind: string;
  description: string;
}

type Reader = Pick<Tx, 'workflow' | 'workflowVersion' | 'mailbox' | 'mailMessage' | 'senderExclusion' | 'executionStep'>;

type Checked = { ok: true; workflow: Workflow; version: WorkflowVersion } | { ok: false; reason: ReplayRefusal };

/** The domains an address's domain falls under: `a.b.example.com` → itself, `b.example.com`, `example.com`, `com`. */
export function domainsOf(email: string): string[] {
  const at = email.lastIndexOf('@');
  if (at < 0) return [];
  const labels = email.slice(at + 1).toLowerCase().split('.').filter(Boolean);
  return labels.map((_, index) => labels.slice(index).join('.'));
}

/** Whether `email` is excluded for the member: an organisation or member exclusion of the address or of its domain (subdomains included). */
export async function senderExcluded(memberId: string, email: string, tx: Reader = db()): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const found = await tx.senderExclusion.findFirst({
    where: {
      OR: [{ memberId: null }, { memberId }],
      AND: [{ OR: [{ kind: 'address', value: address }, { kind: 'domain', value: { in: domainsOf(address) } }] }],
    },
    select: { id: true },
  });
  return found !== null;
}

async function senderOf(execution: Execution, tx: Reader): Promise<string | null> {
  if (execution.messageId) {
    const message = await tx.mailMessage.findUnique({ where: { id: execution.messageId }, select: { fromEmail: true } });
    if (message?.fromEmail) return message.fromEmail;
  }
  const headline = execution.messageHeadline as { fromEmail?: unknown } | null;
  return typeof headline?.fromEmail === 'string' && headline.fromEmail ? headline.fromEmail : null;
}

/** Applies the refusal rules in the spec's order of concern; the first that applies is the reason. */
export async function checkReplay(execution: Execution, request: ReplayRequest, tx: Reader = db()): Promise<Checked> {
  if (execution.simulated) return { ok: false, reason: 'simulated' };
  if (execution.status === 'succeeded') return { ok: false, reason: 'succeeded' };
  if (execution.status !== 'failed' && execution.status !== 'cancelled') return { ok: false, reason: 'in_progress' };
  const workflow = await tx.workflow.findFirst({ where: { id: execution.workflowId, memberId: execution.memberId } });
  if (!workflow) return { ok: false, reason: 'workflow_deleted' };
  if (workflow.archivedAt) return { ok: false, reason: 'workflow_archived' };
  const versionId = request.version === 'published' ? workflow.publishedVersionId : execution.workflowVersionId;
  const version = versionId ? await tx.workflowVersion.findFirst({ where: { id: versionId, workflowId: workflow.id } }) : null;
  if (!version) return { ok: false, reason: 'version_unavailable' };
  if (execution.mailboxId) {
    const mailbox = await tx.mailbox.findFirst({ where: { id: execution.mailboxId, memberId: execution.memberId }, select: { status: true } });
    if (!mailbox || mailbox.status === 'disconnected') return { ok: false, reason: 'mailbox_disconnected' };
  }
  const sender = await senderOf(execution, tx);
  if (sender && (await senderExcluded(execution.memberId, sender, tx))) return { ok: false, reason: 'sender_excluded' };
  return { ok: true, workflow, version };
}

interface GraphNodeFacts {
  id: string;
  type: string;
  version: number;
  name: string;
  disabled: boolean;
}

/** The nodes of a stored graph, read defensively (a snapshot is valid when written, but it is JSON). */
export function nodesOf(graph: unknown): GraphNodeFacts[] {
  const nodes = (graph as { nodes?: unknown } | null)?.nodes;
  if (!Array.isArray(nodes)) return [];
  return nodes.flatMap((node) => {
    if (typeof node !== 'object' || node === null) return [];
    const { id, type, version, name, disabled } = node as Record<string, unknown>;
    if (typeof id !== 'string' || typeof type !== 'string') return [];
    return [{ id, type, version: typeof version === 'number' ? version : 1, name: typeof name === 'string' ? name : id, disabled: disabled === true }];
  });
}

/** The original's steps a replay from the failed step keeps: succeeded, for nodes the chosen graph still has. */
export function keptSteps(steps: ExecutionStep[], graph: unknown): ExecutionStep[] {
  const nodeIds = new Set(nodesOf(graph).map((node) => node.id));
  return steps.filter((step) => step.status === 'succeeded' && nodeIds.has(step.nodeId));
}

function recordedEffects(step: ExecutionStep | undefined): { kind: string; description: string }[] {
  if (!step || !Array.isArray(step.effects)) return [];
  return step.effects.flatMap((effect) => {
    if (typeof effect !== 'object' || effect === null || Array.isArray(effect)) return [];
    const { kind, description } = effect as Record<string, unknown>;
    return [{ kind: typeof kind === 'string' ? kind : 'unknown', description: typeof description === 'string' ? description : '' }];
  });
}

/**
 * The effects a replay would make again: for every node of the chosen graph that will run (all of
 * them from the start; those not kept from the failed step), the effects its original step recorded,
 * or, when it recorded none, the node type's effect kind if it acts outside the run.
 */
export function previewEffects(steps: ExecutionStep[], graph: unknown, from: ReplayFrom): EffectPreview[] {
  const kept = new Set(from === 'failed_step' ? keptSteps(steps, graph).map((step) => step.nodeId) : []);
  const stepByNode = new Map(steps.map((step) => [step.nodeId, step]));
  const previews: EffectPreview[] = [];
  for (const node of nodesOf(graph)) {
    if (node.disabled || kept.has(node.id)) continue;
    const recorded = recordedEffects(stepByNode.get(node.id));
    if (recorded.length > 0) {
      for (const effect of recorded) previews.push({ nodeId: node.id, nodeName: node.name, ...effect });
      continue;
    }
    const definition = findNodeType(node.type, node.version);
    if (definition && definition.effect !== 'none') {
      previews.push({ nodeId: node.id, nodeName: node.name, kind: definition.effect, description: definition.label.en });
    }
  }
  return previews;
}

function refuse(reason: ReplayRefusal): never {
  throw appError('execution.not_replayable', { details: { reason } });
}

async function ownedExecution(memberId: string, id: string, tx: Pick<Tx, 'execution'>): Promise<Execution> {
  const execution = await tx.execution.findFirst({ where: { id, memberId } });
  if (!execution) throw appError('execution.not_found');
  return execution;
}

/** Checks a replay and lists its effects without creating anything. */
export async function previewReplay(memberId: string, executionId: string, request: ReplayRequest, authorize?: AuthorizeReplay) {
  const execution = await ownedExecution(memberId, executionId, db());
  const checked = await checkReplay(execution, request);
  if (!checked.ok) refuse(checked.reason);
  await authorize?.(checked.version, db());
  const steps = await db().executionStep.findMany({ where: { executionId }, orderBy: [{ seq: 'asc' }, { id: 'asc' }] });
  return { dryRun: true as const, from: request.from, versionId: checked.version.id, effects: previewEffects(steps, checked.version.graph, request.from) };
}

/**
 * Starts the replay in the caller's transaction: the original is locked first, so its status is
 * read as it stands; from the failed step the kept steps are copied in the same transaction.
 */
export async function replayIn(
  tx: Tx,
  memberId: string,
  executionId: string,
  request: ReplayRequest,
  authorize?: AuthorizeReplay,
): Promise<{ ok: true; executionId: string; versionId: string } | { ok: false; reason: ReplayRefusal }> {
  await tx.$queryRaw`SELECT id FROM executions WHERE id = ${executionId}::uuid AND member_id = ${memberId}::uuid FOR UPDATE`;
  const execution = await ownedExecution(memberId, executionId, tx);
  const checked = await checkReplay(execution, request, tx);
  if (!checked.ok) return checked;
  await authorize?.(checked.version, tx);
  const { workflow, version } = checked;
  const started = await startExecution(
    {
      memberId,
      workflowId: workflow.id,
      workflowVersionId: version.id,
      trigger: {
        type: execution.triggerType,
        // The chosen version's trigger node (a republished graph may have renamed it).
        nodeId: version.triggerNodeId ?? execution.triggerNodeId,
        data: (execution.triggerData ?? null) as Record<string, unknown> | null,
        mailboxId: execution.mailboxId,
        messageId: execution.messageId,
        headline: (execution.messageHeadline ?? null) as never,
      },
      startedBy: 'replay',
      retryOf: { executionId, from: request.from },
    },
    tx,
  );
  if (request.from === 'failed_step') {
    const steps = await tx.executionStep.findMany({ where: { executionId }, orderBy: [{ seq: 'asc' }, { id: 'asc' }] });
    const kept = keptSteps(steps, version.graph);
    if (kept.length > 0) {
      await copyReplayedSteps(
        tx,
        kept.map((step) => ({
          executionId: started.id,
          nodeId: step.nodeId,
          nodeType: step.nodeType,
          status: 'succeeded',
          attempt: step.attempt,
          input: step.input as object,
          output: step.output,
          data: (step.data ?? undefined) as object | undefined,
          dataTruncated: step.dataTruncated,
          durationMs: step.durationMs,
          effects: step.effects as object,
          llmSkipped: step.llmSkipped,
          attempts: step.attempts as object,
          copiedFrom: step.id,
          warnings: step.warnings,
          pinned: step.pinned,
          disabled: step.disabled,
          loop: (step.loop ?? undefined) as object | undefined,
          error: (step.error ?? undefined) as object | undefined,
          seq: step.seq,
          startedAt: step.startedAt,
          finishedAt: step.finishedAt,
        })),
      );
    }
  }
  return { ok: true, executionId: started.id, versionId: version.id };
}

/** Replays one execution of the member; a refusal is 409 `execution.not_replayable` with `details.reason`. */
export async function replayExecution(memberId: string, executionId: string, request: ReplayRequest, authorize?: AuthorizeReplay) {
  const outcome = await inRetriedTransaction((tx) => replayIn(tx, memberId, executionId, request, authorize));
  if (!outcome.ok) refuse(outcome.reason);
  return { executionId: outcome.executionId, from: request.from, versionId: outcome.versionId };
}

/**
 * Bulk replay of a workflow's failed live runs not yet replayed, oldest first (spec: retry-failed).
 * Called runs (loop iterations, sub-workflow runs) are left out: their calling run is the one to replay.
 * A run that cannot be replayed is skipped and counted by reason; skipped runs do not use up
 * `limit`, and at most `examine` candidates are looked at per call (`hasMore` then says to call again).
 */
export async function retryFailed(
  memberId: string,
  workflowId: string,
  options: { limit: number; since: Date; from: ReplayFrom; examine?: number; authorize?: AuthorizeReplay },
): Promise<{ replayed: { executionId: string; replayId: string }[]; skipped: number; skippedReasons: Record<string, number>; hasMore: boolean }> {
  const examine = options.examine ?? 1_000;
  const candidates = await db().$queryRaw<{ id: string }[]>`
    SELECT e.id FROM executions e
     WHERE e.member_id = ${memberId}::uuid AND e.workflow_id = ${workflowId}::uuid AND e.status = 'failed' AND e.simulated = false
       AND e.parent_execution_id IS NULL
       AND coalesce(e.finished_at, e.created_at) >= ${options.since}::timestamptz
       AND NOT EXISTS (SELECT 1 FROM executions r WHERE r.retry_of_execution_id = e.id)
     ORDER BY e.seq ASC
     LIMIT ${examine + 1}::int`;
  const replayed: { executionId: string; replayId: string }[] = [];
  const skippedReasons = new Map<string, number>();
  let examined = 0;
  for (const candidate of candidates.slice(0, examine)) {
    if (replayed.length >= options.limit) break;
    examined += 1;
    const outcome = await inRetriedTransaction((tx) => replayIn(tx, memberId, candidate.id, { from: options.from, version: 'published' }, options.authorize));
    if (outcome.ok) replayed.push({ executionId: candidate.id, replayId: outcome.executionId });
    else skippedReasons.set(outcome.reason, (skippedReasons.get(outcome.reason) ?? 0) + 1);
  }
  const skipped = [...skippedReasons.values()].reduce((sum, count) => sum + count, 0);
  return { replayed, skipped, skippedReasons: Object.fromEntries(skippedReasons), hasMore: candidates.length > examined };
}
