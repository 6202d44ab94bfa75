/**
 * Executions, steps and incidents as the spec's Resources show them (Execution list and detail forms,
 * Step fields, Incident), and the inputs of the Executions endpoints with their Limits.
 *
 * Terminology: an execution is one run of a workflow graph; a step is one node's run in it; an attempt
 * is one try of a step; an effect is what a step did outside the run; an incident records one failed
 * live execution.
 */
import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime, isoDateTimeInput } from '../../core/http/schemas';
import { executionUndoSummarySchema } from './undo/schemas';

export const executionStatuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];
/** Statuses of a run in progress: cancel moves them, replay refuses them. */
export const inProgressStatuses: readonly ExecutionStatus[] = ['queued', 'running', 'waiting'];

/** The executions list's `effects` filter: runs that acted, or finished without acting. */
export const executionEffectsFilters = ['with', 'without'] as const;

export const stepStatuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'skipped'] as const;

const failureKind = z.enum(['transient', 'permanent']);

export const executionErrorSchema = z
  .object({
    code: z.string(),
    message: z.string(),
    nodeId: z.string().optional(),
    kind: failureKind.optional(),
    attempts: z.number().int().min(0).optional(),
    nodeType: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    at: isoDateTime.optional(),
  })
  .meta({ id: 'ExecutionError' });

export const messageHeadlineSchema = z
  .object({ subject: z.string().nullable(), fromName: z.string().nullable(), fromEmail: z.string().nullable() })
  .describe('The triggering email’s subject and sender.');

export const executionSchema = z
  .object({
    id: z.uuid(),
    workflowId: z.uuid(),
    workflowVersionId: z.uuid(),
    createdAt: isoDateTime,
    mailboxId: z.string().nullable(),
    messageId: z.string().nullable(),
    status: z.enum(executionStatuses),
    simulated: z.boolean().describe('A test run.'),
    parentExecutionId: z.string().nullable().optional().describe('The calling run of a sub-workflow run or loop iteration.'),
    triggerNodeId: z.string().nullable().optional(),
    triggerType: z.string().nullable().optional().describe('`mail`, `webhook`, `workflow_failure`, `schedule`, or null.'),
    retryOfExecutionId: z.string().nullable().optional().describe('The run this one replays.'),
    messageHeadline: messageHeadlineSchema.nullable(),
    error: executionErrorSchema.nullable(),
    startedAt: isoDateTime.nullable(),
    finishedAt: isoDateTime.nullable(),
    acted: z
      .boolean()
      .nullable()
      .describe(
        'Whether the run acted outside itself: one of its steps, or a run it called, recorded an effect (simulated effects count for a test run). `false`: the run did nothing (e.g. a condition led nowhere). Null until the run finishes.',
      ),
  })
  .meta({ id: 'Execution' });

export type ExecutionOutput = z.infer<typeof executionSchema>;

const effectSchema = z.object({ kind: z.string(), description: z.string(), simulated: z.boolean().optional() });

const attemptSchema = z.object({
  attempt: z.number().int().min(1),
  at: z.string(),
  code: z.string(),
  message: z.string(),
  kind: failureKind,
  interrupted: z.boolean().optional(),
  retried: z.boolean(),
});

const loopSchema = z.object({
  total: z.number().int().min(0),
  started: z.number().int().min(0),
  succeeded: z.number().int().min(0),
  failed: z.number().int().min(0),
  concurrency: z.number().int().min(0),
  status: z.enum(['running', 'done', 'failed', 'timeout']),
  simulatedLimit: z.number().int().min(0).optional(),
});

export const stepSchema = z
  .object({
    id: z.uuid(),
    nodeId: z.string(),
    nodeType: z.string().describe('The node’s type (`flow.wait_for_reply`), as the step was run.'),
    status: z.enum(stepStatuses),
    attempt: z.number().int().min(0),
    output: z.string().nullable().describe('The output port the step took.'),
    data: z.record(z.string(), z.unknown()).nullable(),
    dataTruncated: z.boolean(),
    durationMs: z.number().int().min(0).nullable(),
    effects: z.array(effectSchema),
    llmSkipped: z.boolean(),
    attempts: z.array(attemptSchema),
    copiedFrom: z.string().optional().describe('The step of the replayed run this one was kept from (replay from the failed step).'),
    warnings: z.array(z.string()),
    input: z.record(z.string(), z.unknown()).describe('The parameters the step received (expressions resolved, secrets masked).'),
    pinned: z.boolean(),
    disabled: z.boolean(),
    loop: loopSchema.optional(),
    error: executionErrorSchema.nullable(),
    waitUntil: isoDateTime
      .optional()
      .describe(
        'A waiting step: when its wait ends if nothing ends it first (a Wait’s end, a wait for a reply’s deadline, an approval’s expiry). Absent on other steps and on a wait with no deadline.',
      ),
  })
  .meta({ id: 'ExecutionStep' });

export type StepOutput = z.infer<typeof stepSchema>;

const attachmentSchema = z.record(z.string(), z.unknown()).describe('A file the run produced (as its step reported it).');

export const executionDetailSchema = executionSchema
  .extend({
    workflowName: z.string().describe('Empty when the workflow was deleted.'),
    triggerData: z.record(z.string(), z.unknown()).nullable(),
    steps: z.array(stepSchema).describe('Ordered by start.'),
    attachments: z.array(attachmentSchema),
    undo: executionUndoSummarySchema
      .nullable()
      .describe('The undo of the run’s mailbox changes (POST /api/v1/executions/{id}/undo): null when the run was never undone.'),
  })
  .meta({ id: 'ExecutionDetail' });

export const waitingExecutionSchema = executionSchema
  .extend({ waitUntil: isoDateTime.nullable().describe('When the wait ends; null: until decided.') })
  .meta({ id: 'WaitingExecution' });

const cursor = z.string().max(500).optional().describe('The `nextCursor` of the previous page.');

export const listExecutionsInput = z
  .object({
    workflowId: z.uuid().optional(),
    mailboxId: z.uuid().optional().describe('Intersected with the member’s mailboxes.'),
    status: z.enum(executionStatuses).optional(),
    simulated: z.enum(['true', 'false']).optional().describe('`true`: test runs only; `false`: live runs only.'),
    q: z.string().trim().min(1).max(200).optional().describe('Searches the subject and sender of the triggering email.'),
    effects: z
      .enum(executionEffectsFilters)
      .optional()
      .describe('`with`: finished runs that acted (`acted: true`); `without`: finished runs that did nothing (`acted: false`).'),
    loopIterations: z
      .enum(['true', 'false'])
      .optional()
      .describe('`false`: leaves out loop iterations (the runs a Loop step starts, one per item), as the dashboard counts; `true`: loop iterations only.'),
    from: isoDateTimeInput.optional().describe('Runs created at or after this instant.'),
    to: isoDateTimeInput.optional().describe('Runs created before this instant (exclusive); after `from` when both are given.'),
    cursor,
    limit: limitParam(50, 200),
  })
  .refine((input) => input.from === undefined || input.to === undefined || Date.parse(input.from) < Date.parse(input.to), {
    message: '`to` must be after `from`.',
    path: ['to'],
  });
export type ListExecutionsQuery = z.infer<typeof listExecutionsInput>;

export const executionPageOutput = z.object({ executions: z.array(executionSchema), nextCursor: z.string().nullable() });

export const listWaitingInput = z.object({ cursor, limit: limitParam(50, 200) });
export type ListWaitingQuery = z.infer<typeof listWaitingInput>;
export const waitingPageOutput = z.object({ executions: z.array(waitingExecutionSchema), nextCursor: z.string().nullable() });

export const summaryInput = z.object({
  since: isoDateTimeInput.optional().describe('Default 24 hours ago; clamped to at most 30 days back and not in the future.'),
});

export const summaryOutput = z.object({
  since: isoDateTime.describe('The applied value.'),
  total: z.number().int().min(0),
  failed: z.number().int().min(0),
  running: z.number().int().min(0),
  succeeded: z.number().int().min(0),
  lastFailedAt: isoDateTime.nullable(),
  byWorkflow: z.array(
    z.object({
      workflowId: z.uuid(),
      name: z.string(),
      failed: z.number().int().min(0),
      total: z.number().int().min(0),
      lastFailedAt: isoDateTime.nullable(),
    }),
  ),
});

export const incidentSchema = z
  .object({
    id: z.uuid(),
    executionId: z.uuid(),
    workflowId: z.uuid(),
    workflowName: z.string(),
    mailboxId: z.string().nullable(),
    failedAt: isoDateTime,
    errorSummary: z.string().max(200).describe('Anonymised.'),
    nodeId: z.string().nullable(),
    nodeName: z.string().nullable(),
    acknowledgedAt: isoDateTime.nullable(),
    resolvedAt: isoDateTime
      .nullable()
      .describe('When a replay of the failed run (or of a replay of it) succeeded; the incident then counts as acknowledged too (first instant kept).'),
    resolvedByExecutionId: z.uuid().nullable().describe('The successful replay that resolved it.'),
  })
  .meta({ id: 'Incident' });
export type IncidentOutput = z.infer<typeof incidentSchema>;

export const listIncidentsInput = z.object({
  since: isoDateTimeInput.optional().describe('Incidents of failures at or after this instant.'),
  unacknowledged: z.enum(['true', 'false']).optional().describe('`true` keeps unacknowledged incidents only.'),
  cursor,
  limit: limitParam(50, 200),
});
export type ListIncidentsQuery = z.infer<typeof listIncidentsInput>;
export const incidentPageOutput = z.object({ items: z.array(incidentSchema), nextCursor: z.string().nullable() });
export const acknowledgeOutput = z.object({ acknowledgedAt: isoDateTime });

export const cancelListInput = z.object({
  ids: z.array(z.uuid()).min(1).max(200).describe('1 to 200 execution ids.'),
});
export const cancelListOutput = z.object({
  cancelled: z.array(z.uuid()),
  skipped: z.array(z.object({ id: z.uuid(), reason: z.enum(['finished', 'not_found']) })),
});

export const cancelOneOutput = z.object({ id: z.uuid(), status: z.literal('cancelled'), cancelledChildren: z.number().int().min(0) });

const bulkLimit = z.number().int().min(1).max(200).default(50).describe('1 to 200, default 50.');

export const cancelWorkflowInput = z.object({ id: z.uuid(), limit: bulkLimit });
export const cancelWorkflowOutput = z.object({
  cancelled: z.number().int().min(0),
  hasMore: z.boolean().describe('More runs in progress remain: call again.'),
});

export const replayFromValues = ['start', 'failed_step'] as const;
export type ReplayFrom = (typeof replayFromValues)[number];

export const replayInput = z.object({
  id: z.uuid(),
  from: z.enum(replayFromValues).default('start'),
  version: z.enum(['published', 'original']).default('published'),
  dryRun: z.boolean().default(false).describe('Check and list the effects that would happen again, without starting anything.'),
});
export type ReplayRequest = Omit<z.infer<typeof replayInput>, 'id'>;

const effectPreviewSchema = z.object({ nodeId: z.string(), nodeName: z.string(), kind: z.string(), description: z.string() });

export const replayOutput = z.union([
  z.object({ executionId: z.uuid(), from: z.enum(replayFromValues), versionId: z.uuid() }),
  z.object({ dryRun: z.literal(true), from: z.enum(replayFromValues), versionId: z.uuid(), effects: z.array(effectPreviewSchema) }),
]);

export const retryFailedInput = z
  .object({
    id: z.uuid(),
    limit: bulkLimit,
    since: isoDateTimeInput.optional().describe('Failed at or after this instant; at most 30 days back (clamped), default 24 hours.'),
    period: z.enum(['24h', '7d', '30d']).optional().describe('Instead of `since`: the last 24 hours, 7 days or 30 days.'),
    from: z.enum(replayFromValues).default('start'),
  })
  .refine((input) => !(input.since && input.period), { message: 'Give `since` or `period`, not both.', path: ['period'] });

export const retryFailedOutput = z.object({
  replayed: z.array(z.object({ executionId: z.uuid(), replayId: z.uuid() })),
  skipped: z.number().int().min(0).describe('Failed runs that could not be replayed.'),
  skippedReasons: z.record(z.string(), z.number().int().min(0)).describe('The skipped runs counted by refusal reason.'),
  hasMore: z.boolean(),
  since: isoDateTime.describe('The applied start of the window.'),
});
