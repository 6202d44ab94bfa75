/**
 * Evaluation runs (ours, in the spec's style; `GET /api/v1/eval-runs/{id}` is named by the spec):
 * a workflow version run in simulation over a set of cases, never producing a real effect, each
 * case compared with a baseline.
 *
 * Terminology: an evaluation run evaluates one version (the draft's snapshot by default) over its
 * cases; a case is one mirrored message or one item of given trigger data; the baseline is what the
 * published version would do (in simulation too) or what really happened (`journal`: the real runs
 * of the workflow on that message); a case is `changed` when the two differ.
 */
import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime, isoDateTimeInput } from '../../core/http/schemas';
import { notStartedVerdicts } from '../../engine';
import { freeJsonProblem } from '../workflows/schemas';

export const evalRunStatuses = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type EvalRunStatus = (typeof evalRunStatuses)[number];
export const finishedEvalStatuses: readonly EvalRunStatus[] = ['succeeded', 'failed', 'cancelled'];

export const evalCaseStatuses = ['pending', 'running', 'done', 'cancelled'] as const;
export const baselines = ['published', 'journal', 'none'] as const;
export type Baseline = (typeof baselines)[number];

/** Spec, Limits: evaluation cases page size 50, max 200; a source takes at most 200 messages or 50 items. */
export const evalBounds = { maxMessages: 200, defaultMessages: 200, maxItems: 50, maxItemBytes: 256 * 1024, maxListed: 50, defaultListed: 10 } as const;

/** A free JSON object for trigger data: no `__proto__` key, bounded depth (the workflows domain's rule). */
const triggerDataItem = z.preprocess((input, ctx) => {
  const problem = freeJsonProblem(input);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input });
    return z.NEVER;
  }
  return input;
}, z.record(z.string(), z.unknown()));

const messageLimit = z.number().int().min(1).max(evalBounds.maxMessages).default(evalBounds.defaultMessages);

export const evalSourceInput = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('recent'), limit: messageLimit.describe('The last N mirrored messages of the trigger’s mailboxes (1-200, default 200).') }),
    z.strictObject({
      kind: z.literal('range'),
      from: isoDateTimeInput.describe('Messages received at or after this time…'),
      to: isoDateTimeInput.describe('…and before this time.'),
      limit: messageLimit.describe('At most this many, newest first (1-200, default 200).'),
    }),
    z.strictObject({
      kind: z.literal('trigger_data'),
      items: z.array(triggerDataItem).min(1).max(evalBounds.maxItems).describe('Trigger data objects (1-50, each ≤ 256 KB), one case each.'),
    }),
  ])
  .refine((source) => source.kind !== 'range' || Date.parse(source.from) < Date.parse(source.to), { message: '`from` must be before `to`.', path: ['to'] });

export type EvalSourceInput = z.output<typeof evalSourceInput>;

const idParam = z.string().min(1).max(200);

export const startEvalInput = z.object({
  id: idParam.describe('The workflow.'),
  source: evalSourceInput.optional().describe('Default `{kind: "recent", limit: 200}`.'),
  baseline: z.enum(baselines).optional().describe('Default `published` when the workflow has a published version, else `none`.'),
  versionId: z.string().min(1).max(200).optional().describe('A version of the workflow; default: a snapshot of the draft as it is now.'),
  callModels: z
    .boolean()
    .default(false)
    .describe('AI nodes call their model for real (cost recorded, budgets enforced; the published baseline’s too); default false: they answer their pin or a simulated output.'),
});
export type StartEvalInput = z.infer<typeof startEvalInput>;

export const evalRunIdInput = z.object({ id: idParam });

export const listEvalRunsInput = z.object({ id: idParam.describe('The workflow.'), limit: limitParam(evalBounds.defaultListed, evalBounds.maxListed) });

export const listCasesInput = z.object({
  id: idParam,
  changed: z.enum(['true', 'false']).optional().describe('`true`: only cases that differ from the baseline.'),
  outcome: z.enum(['triggered', 'not_triggered', 'error', 'effects']).optional().describe('Only cases the version would run, would not run, that end in an error, or with effects.'),
  cursor: z.string().max(500).optional().describe('The `nextCursor` of the previous page.'),
  limit: limitParam(50, 200),
});
export type ListCasesQuery = z.infer<typeof listCasesInput>;

const sourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('recent'), limit: z.number().int() }),
  z.object({ kind: z.literal('range'), from: isoDateTime, to: isoDateTime, limit: z.number().int() }),
  z.object({ kind: z.literal('trigger_data'), count: z.number().int().describe('How many items were given.') }),
]);

const reasonFields = {
  verdict: z
    .enum(notStartedVerdicts)
    .describe('What kept the trigger from starting the version, by mail dispatch’s rules: `excluded` (a sender exclusion), `guardrail` (a kind of mail the trigger leaves out), `filtered` (a trigger filter did not match), `other_mailbox`, `invalid_trigger`.'),
  ruleRef: z.string().nullable().describe('`exclusion:<id>` or `guardrail:<name>` (as in the message journal); null otherwise.'),
  param: z
    .string()
    .nullable()
    .describe('The mail trigger parameter to change: the filter that did not match (`bulkOnly`, `folders`, `from`, `subject`, `hasAttachments`, `requireSignals`, `excludeSignals`), the option that lets the guarded kind in (`includeAutoReplies`, `includeNoReply`, `includeMailingLists`; null for `guardrail:from_self`), or `mailboxIds`.'),
};
const caseReasonSchema = z.object(reasonFields);

/** The reasons summarised on a run: at most this many groups, the most frequent first. */
export const maxReasonGroups = 10;

export const evalRunSchema = z
  .object({
    id: z.uuid(),
    workflowId: z.uuid(),
    versionId: z.uuid().describe('The graph evaluated (a snapshot of the draft, or a version).'),
    baseline: z.enum(baselines),
    baselineVersionId: z.uuid().nullable().describe('The published version compared with (`published`).'),
    source: sourceSchema,
    status: z.enum(evalRunStatuses),
    progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }),
    figures: z
      .object({
        triggered: z.number().int().min(0).describe('Cases the trigger’s filters match.'),
        wouldSend: z.number().int().min(0).describe('Messages the version would send.'),
        wouldDraft: z.number().int().min(0).describe('Drafts it would prepare for review.'),
        errors: z.number().int().min(0).describe('Cases ending in an error.'),
        changed: z.number().int().min(0).describe('Cases that differ from the baseline.'),
      })
      .describe('So far while running.'),
    reasons: z
      .array(z.object({ ...reasonFields, count: z.number().int().min(1) }))
      .describe('Why cases were not triggered, grouped by reason, the most frequent first (at most 10 groups; so far while running).'),
    callModels: z.boolean().describe('Whether AI nodes call their model for real.'),
    costUsd: z.number().min(0).nullable().describe('The known cost of the model calls so far, in USD (calls at unknown prices count 0); null when the run calls no model.'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: isoDateTime,
    startedAt: isoDateTime.nullable(),
    finishedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'EvalRun' });
export type EvalRunOutput = z.infer<typeof evalRunSchema>;

const effectSchema = z.object({ kind: z.string().describe('The node type that would act (`mail.send`, `mail.draft`, …).'), description: z.string() });
const caseErrorSchema = z.object({ code: z.string(), message: z.string(), nodeId: z.string().optional() });

export const evalCaseSchema = z
  .object({
    id: z.uuid(),
    index: z.number().int().min(0),
    messageId: z.uuid().nullable(),
    headline: z.object({ subject: z.string().nullable(), fromName: z.string().nullable(), fromEmail: z.string().nullable() }).nullable(),
    status: z.enum(evalCaseStatuses),
    triggered: z.boolean().nullable().describe('Whether the trigger would start the version (null until decided).'),
    reason: caseReasonSchema.nullable().describe('Why the trigger would not start the version (null when it would, until decided, or for given trigger data). A case it starts reads by its `path` and `effects`.'),
    path: z.array(z.string()).describe('Node ids that ran, in order.'),
    effects: z.array(effectSchema).describe('What it would do outside the run (simulated).'),
    error: caseErrorSchema.nullable(),
    baseline: z
      .object({ triggered: z.boolean(), path: z.array(z.string()), effects: z.array(effectSchema), error: caseErrorSchema.nullable() })
      .nullable()
      .describe('What the baseline did (null: no baseline).'),
    changed: z.boolean(),
    executionId: z.uuid().nullable().describe('The simulated run of the evaluated version.'),
    baselineExecutionId: z.uuid().nullable().describe('The simulated run of the published version, or the real run (`journal`).'),
  })
  .meta({ id: 'EvalCase' });
export type EvalCaseOutput = z.infer<typeof evalCaseSchema>;

export const evalRunOutput = z.object({ evalRun: evalRunSchema });
export const evalRunListOutput = z.object({ evalRuns: z.array(evalRunSchema) });
export const evalCasePageOutput = z.object({ cases: z.array(evalCaseSchema), nextCursor: z.string().nullable() });
