/**
 * Executions, steps and incidents written directly as the engine would leave them, so tests of the
 * executions routes, cancel and replay do not depend on the advancer running anything.
 */
import { db } from '../core/db';
import type { TestMember } from './factories';

export interface ExecutionOptions {
  workflowId: string;
  workflowVersionId: string;
  status?: 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'cancelled';
  simulated?: boolean;
  holdsSlot?: boolean;
  mailboxId?: string | null;
  messageId?: string | null;
  headline?: { subject: string | null; fromName: string | null; fromEmail: string | null } | null;
  triggerData?: Record<string, unknown> | null;
  parentExecutionId?: string | null;
  retryOfExecutionId?: string | null;
  error?: Record<string, unknown> | null;
  waitUntil?: Date | null;
  createdAt?: Date;
  finishedAt?: Date | null;
  /** `sub_workflow`, `loop_iteration`, `error_workflow`, `replay` or null (a trigger, the default). */
  startedBy?: string | null;
  evalRunId?: string | null;
  /** Default: `createdAt` (null for a queued run). */
  startedAt?: Date | null;
  /** The stored "acted outside itself" flag (server/engine/run/acted.ts); null by default. */
  acted?: boolean | null;
}

const finished = new Set(['succeeded', 'failed', 'cancelled']);

export async function createExecution(member: Pick<TestMember, 'id'>, options: ExecutionOptions) {
  const status = options.status ?? 'failed';
  const createdAt = options.createdAt ?? new Date();
  return db().execution.create({
    data: {
      memberId: member.id,
      workflowId: options.workflowId,
      workflowVersionId: options.workflowVersionId,
      status,
      simulated: options.simulated ?? false,
      holdsSlot: options.holdsSlot ?? !(options.simulated ?? false),
      mailboxId: options.mailboxId ?? null,
      messageId: options.messageId ?? null,
      messageHeadline: options.headline ?? undefined,
      triggerType: 'webhook',
      triggerNodeId: 'start',
      triggerData: (options.triggerData === null ? undefined : (options.triggerData ?? { hello: 'world' })) as object | undefined,
      parentExecutionId: options.parentExecutionId ?? null,
      retryOfExecutionId: options.retryOfExecutionId ?? null,
      startedBy: options.startedBy ?? null,
      evalRunId: options.evalRunId ?? null,
      error: (options.error ?? (status === 'failed' ? { code: 'http_status', message: 'The server answered 500.', nodeId: 'call', kind: 'permanent', attempts: 1 } : undefined)) as object | undefined,
      waitUntil: options.waitUntil ?? null,
      acted: options.acted ?? null,
      timeoutMs: 3_600_000,
      createdAt,
      startedAt: options.startedAt !== undefined ? options.startedAt : status === 'queued' ? null : createdAt,
      finishedAt: options.finishedAt !== undefined ? options.finishedAt : finished.has(status) ? new Date(createdAt.getTime() + 1_000) : null,
    },
  });
}

export interface StepOptions {
  nodeId: string;
  nodeType?: string;
  status?: 'queued' | 'running' | 'waiting' | 'succeeded' | 'failed' | 'skipped';
  seq?: number;
  data?: Record<string, unknown> | null;
  output?: string | null;
  effects?: { kind: string; description: string; simulated?: boolean }[];
  error?: Record<string, unknown> | null;
  attempts?: Record<string, unknown>[];
  loop?: Record<string, unknown> | null;
}

export async function createStep(executionId: string, options: StepOptions) {
  const status = options.status ?? 'succeeded';
  return db().executionStep.create({
    data: {
      executionId,
      nodeId: options.nodeId,
      nodeType: options.nodeType ?? 'data.set@1',
      status,
      attempt: 1,
      input: { param: options.nodeId },
      output: options.output === undefined ? (status === 'succeeded' ? 'main' : null) : options.output,
      data: (options.data === null ? undefined : (options.data ?? { from: options.nodeId })) as object | undefined,
      durationMs: 12,
      effects: options.effects ?? [],
      attempts: (options.attempts ?? []) as object[],
      loop: (options.loop ?? undefined) as object | undefined,
      error: (options.error ?? undefined) as object | undefined,
      seq: options.seq ?? 0,
      startedAt: new Date(),
      finishedAt: status === 'succeeded' || status === 'failed' || status === 'skipped' ? new Date() : null,
    },
  });
}

export async function createIncident(
  member: Pick<TestMember, 'id'>,
  execution: { id: string; workflowId: string },
  options: { failedAt?: Date; workflowName?: string; acknowledgedAt?: Date | null } = {},
) {
  return db().incident.create({
    data: {
      memberId: member.id,
      executionId: execution.id,
      workflowId: execution.workflowId,
      workflowName: options.workflowName ?? 'Test workflow',
      failedAt: options.failedAt ?? new Date(),
      errorSummary: 'HTTP node answered 500',
      nodeId: 'call',
      nodeName: 'Call',
      acknowledgedAt: options.acknowledgedAt ?? null,
    },
  });
}
