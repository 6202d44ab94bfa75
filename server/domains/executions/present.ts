/**
 * Stored executions, steps and incidents to the API shapes. Stored JSON (error, headline, effects,
 * attempts, loop) is written by the engine; it is read defensively so a row written by an older
 * engine never breaks a list.
 */
import type { Execution, ExecutionStep, Incident } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { executionStatuses, stepStatuses, type ExecutionOutput, type IncidentOutput, type StepOutput } from './schemas';

type Json = unknown;

const isObject = (value: Json): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const nonNegativeInt = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined);
const kindOf = (value: unknown): 'transient' | 'permanent' | undefined => (value === 'transient' || value === 'permanent' ? value : undefined);

/** Drops undefined keys so optional fields are absent rather than null. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}

export function presentError(value: Json): ExecutionOutput['error'] {
  if (!isObject(value)) return null;
  return compact({
    code: str(value.code) ?? 'internal',
    message: str(value.message) ?? '',
    nodeId: str(value.nodeId),
    kind: kindOf(value.kind),
    attempts: nonNegativeInt(value.attempts),
    nodeType: str(value.nodeType),
    details: isObject(value.details) ? value.details : undefined,
    at: str(value.at),
  });
}

export function presentHeadline(value: Json): ExecutionOutput['messageHeadline'] {
  if (!isObject(value)) return null;
  return { subject: str(value.subject) ?? null, fromName: str(value.fromName) ?? null, fromEmail: str(value.fromEmail) ?? null };
}

export type ExecutionRow = Pick<
  Execution,
  | 'id'
  | 'workflowId'
  | 'workflowVersionId'
  | 'createdAt'
  | 'mailboxId'
  | 'messageId'
  | 'status'
  | 'simulated'
  | 'parentExecutionId'
  | 'triggerNodeId'
  | 'triggerType'
  | 'retryOfExecutionId'
  | 'messageHeadline'
  | 'error'
  | 'startedAt'
  | 'finishedAt'
  | 'acted'
>;

/** The columns the list form needs (a Prisma `select`). */
export const executionListSelect = {
  id: true,
  workflowId: true,
  workflowVersionId: true,
  createdAt: true,
  mailboxId: true,
  messageId: true,
  status: true,
  simulated: true,
  parentExecutionId: true,
  triggerNodeId: true,
  triggerType: true,
  retryOfExecutionId: true,
  messageHeadline: true,
  error: true,
  startedAt: true,
  finishedAt: true,
  acted: true,
} as const;

export function presentExecution(row: ExecutionRow): ExecutionOutput {
  return {
    id: row.id,
    workflowId: row.workflowId,
    workflowVersionId: row.workflowVersionId,
    createdAt: iso(row.createdAt),
    mailboxId: row.mailboxId,
    messageId: row.messageId,
    status: (executionStatuses as readonly string[]).includes(row.status) ? (row.status as ExecutionOutput['status']) : 'queued',
    simulated: row.simulated,
    parentExecutionId: row.parentExecutionId,
    triggerNodeId: row.triggerNodeId,
    triggerType: row.triggerType,
    retryOfExecutionId: row.retryOfExecutionId,
    messageHeadline: presentHeadline(row.messageHeadline),
    error: presentError(row.error),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    acted: row.acted,
  };
}

function presentEffects(value: Json): StepOutput['effects'] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((effect) =>
    compact({ kind: str(effect.kind) ?? 'unknown', description: str(effect.description) ?? '', simulated: typeof effect.simulated === 'boolean' ? effect.simulated : undefined }),
  );
}

function presentAttempts(value: Json): StepOutput['attempts'] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((attempt, index) =>
    compact({
      attempt: typeof attempt.attempt === 'number' && Number.isInteger(attempt.attempt) && attempt.attempt >= 1 ? attempt.attempt : index + 1,
      at: str(attempt.at) ?? '',
      code: str(attempt.code) ?? 'internal',
      message: str(attempt.message) ?? '',
      kind: kindOf(attempt.kind) ?? 'transient',
      interrupted: typeof attempt.interrupted === 'boolean' ? attempt.interrupted : undefined,
      retried: attempt.retried === true,
    }),
  );
}

const loopStatuses = new Set(['running', 'done', 'failed', 'timeout']);

function presentLoop(value: Json): StepOutput['loop'] {
  if (!isObject(value)) return undefined;
  return compact({
    total: nonNegativeInt(value.total) ?? 0,
    started: nonNegativeInt(value.started) ?? 0,
    succeeded: nonNegativeInt(value.succeeded) ?? 0,
    failed: nonNegativeInt(value.failed) ?? 0,
    concurrency: nonNegativeInt(value.concurrency) ?? 0,
    status: (loopStatuses.has(str(value.status) ?? '') ? value.status : 'running') as NonNullable<StepOutput['loop']>['status'],
    simulatedLimit: nonNegativeInt(value.simulatedLimit),
  });
}

/**
 * A waiting step's deadline, from its saved suspension (`{mode: 'waiting', until, node}`, written by
 * the engine's run/step-rows.ts `wrapSuspension`): what the run page says the run waits until.
 */
function waitUntilOf(row: Pick<ExecutionStep, 'status' | 'state'>): string | undefined {
  if (row.status !== 'waiting' || !isObject(row.state) || row.state.mode !== 'waiting') return undefined;
  const until = str(row.state.until);
  return until !== undefined && !Number.isNaN(Date.parse(until)) ? new Date(until).toISOString() : undefined;
}

export function presentStep(row: ExecutionStep): StepOutput {
  return compact({
    id: row.id,
    nodeId: row.nodeId,
    nodeType: row.nodeType,
    status: (stepStatuses as readonly string[]).includes(row.status) ? (row.status as StepOutput['status']) : 'queued',
    attempt: row.attempt,
    output: row.output,
    data: isObject(row.data) ? row.data : null,
    dataTruncated: row.dataTruncated,
    durationMs: row.durationMs,
    effects: presentEffects(row.effects),
    llmSkipped: row.llmSkipped,
    attempts: presentAttempts(row.attempts),
    copiedFrom: row.copiedFrom ?? undefined,
    warnings: row.warnings,
    input: isObject(row.input) ? row.input : {},
    pinned: row.pinned,
    disabled: row.disabled,
    loop: presentLoop(row.loop),
    error: presentError(row.error),
    waitUntil: waitUntilOf(row),
  });
}

/**
 * Files steps reported under `data.attachments` (an array of objects), in step order. A mail run's
 * trigger data lists the triggering message's attachments under the same key (issue 24 §2), and the
 * trigger step, and every step that passes its input on (`logic.if`, `flow.wait`, `data.set`), carries
 * them: they came in with the message, the run did not produce them, so items naming one of them by
 * `id` are left out.
 */
export function attachmentsOf(steps: ExecutionStep[], triggerData: Json = null): Record<string, unknown>[] {
  const incoming = new Set<unknown>();
  const listed = isObject(triggerData) ? triggerData.attachments : undefined;
  if (Array.isArray(listed)) for (const item of listed) if (isObject(item) && typeof item.id === 'string') incoming.add(item.id);
  const found: Record<string, unknown>[] = [];
  for (const step of steps) {
    const list = isObject(step.data) ? step.data.attachments : undefined;
    if (Array.isArray(list)) for (const item of list) if (isObject(item) && !(typeof item.id === 'string' && incoming.has(item.id))) found.push(item);
  }
  return found;
}

export function presentIncident(row: Incident): IncidentOutput {
  return {
    id: row.id,
    executionId: row.executionId,
    workflowId: row.workflowId,
    workflowName: row.workflowName,
    mailboxId: row.mailboxId,
    failedAt: iso(row.failedAt),
    errorSummary: row.errorSummary.slice(0, 200),
    nodeId: row.nodeId,
    nodeName: row.nodeName,
    acknowledgedAt: iso(row.acknowledgedAt),
    resolvedAt: iso(row.resolvedAt),
    resolvedByExecutionId: row.resolvedByExecutionId,
  };
}
