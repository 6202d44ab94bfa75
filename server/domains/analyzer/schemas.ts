/**
 * The mailbox analyzer (spec: Mailbox analysis report; Endpoints → Mailbox analyzer).
 *
 * Terminology: an analysis (report) of a mailbox holds statistics from the mirror and the messages
 * journal (`body.stats`), sender groups (mail from one domain, of one mailing list by its List-Id, or
 * with one subject pattern, over the window) and opportunities: automations the model proposed for some groups, each with its evidence
 * and a ready draft graph built by our code (./graphs.ts), never by the model.
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';

export const analysisStatuses = ['pending', 'running', 'done', 'failed'] as const;
export type AnalysisStatus = (typeof analysisStatuses)[number];
export const windowDayChoices = [30, 90, 180, 365] as const;
export const opportunityKinds = ['label_archive', 'extract_table', 'draft_reply', 'notify'] as const;
export type OpportunityKind = (typeof opportunityKinds)[number];

/** Analyzer bounds (ours; spec, Limits: not shown). */
export const analyzerBounds = {
  defaultWindowDays: 30,
  defaultMinGroupVolume: 5,
  /** Groups kept per kind (domain, mailing list, subject pattern), the largest first. */
  maxGroupsPerKind: 40,
  /** Groups sent to the model in one call. */
  batchSize: 10,
  /** Groups sent to the model at most (batches = ceil(min(groups, this) / batchSize)). */
  maxGroupsAnalyzed: 60,
  sampleSubjects: 3,
  topSenders: 5,
  messageMax: 300,
} as const;

const idParam = z.string().min(1).max(200);

export const analyzeInput = z.object({
  id: idParam.describe('The mailbox.'),
  force: z.boolean().default(false).describe('Analyse again even when today’s report exists (default false).'),
  windowDays: z
    .union([z.literal(30), z.literal(90), z.literal(180), z.literal(365)])
    .default(30)
    .describe('Days of mail the senders, groups and peak hours look at: 30, 90, 180 or 365 (default 30).'),
  minGroupVolume: z.number().int().min(1).max(1000).default(analyzerBounds.defaultMinGroupVolume).describe('Messages a sender group needs over the window to count (1-1000, default 5).'),
});
export type AnalyzeInput = z.infer<typeof analyzeInput>;

export const mailboxIdInput = z.object({ id: idParam.describe('The mailbox.') });
export const opportunityInput = z.object({ id: idParam.describe('The mailbox.'), key: z.string().min(1).max(200).describe('The opportunity’s key in the latest report.') });

export const reportRefOutput = z.object({
  id: z.string(),
  mailboxId: z.string(),
  status: z.enum(analysisStatuses),
  createdAt: isoDateTime,
  generatedAt: isoDateTime.nullable(),
});

export const analyzeOutput = z.object({ report: reportRefOutput.extend({ reused: z.boolean() }) });

const usage = z.object({
  model: z.string(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  reasoningTokens: z.number().int().nullable(),
  costUsd: z.number().nullable(),
});
const failure = z.object({ code: z.string(), message: z.string().max(analyzerBounds.messageMax) });

export const llmOutcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ran'),
    usage,
    batches: z.number().int(),
    failedBatches: z.number().int(),
    groupsAttempted: z.number().int(),
    groupsAnswered: z.number().int(),
    failure: failure.nullable(),
  }),
  z.object({ status: z.literal('no_provider') }),
  z.object({ status: z.literal('nothing_to_analyze') }),
  z.object({
    status: z.literal('failed'),
    code: z.string(),
    message: z.string().max(analyzerBounds.messageMax),
    batches: z.number().int(),
    failedBatches: z.number().int(),
    groupsAttempted: z.number().int(),
    groupsAnswered: z.number().int(),
    usage: usage.nullable(),
  }),
]);
export type LlmOutcome = z.infer<typeof llmOutcomeSchema>;

export const statsSchema = z.object({
  received30d: z.number().int(),
  excluded30d: z.number().int(),
  unmatched30d: z.number().int(),
  dispatched30d: z.number().int(),
  messages30d: z.number().int(),
  messages90d: z.number().int(),
  messages365d: z.number().int(),
  senders: z.number().int(),
  domains: z.number().int(),
  groups: z.number().int(),
  groupsAnalyzed: z.number().int(),
  peakHours: z.array(z.object({ hour: z.number().int().min(0).max(23), volume: z.number().int() })),
  llmOutcome: llmOutcomeSchema.nullable(),
});
export type AnalysisStats = z.infer<typeof statsSchema>;

export const groupKinds = ['domain', 'list', 'subject'] as const;
export const groupSchema = z.object({
  key: z.string(),
  kind: z.enum(groupKinds),
  label: z.string(),
  volume: z.number().int(),
  senders: z.number().int(),
  topSenders: z.array(z.string()),
  sampleSubjects: z.array(z.string()),
  mailingListShare: z.number().describe('Share of list mail: mailing lists and bulk mail (newsletters), what a trigger’s `includeMailingLists` lets through.'),
  noReplyShare: z.number(),
  attachmentShare: z.number(),
});
export type SenderGroup = z.infer<typeof groupSchema>;

export const opportunitySchema = z.object({
  key: z.string(),
  kind: z.enum(opportunityKinds),
  title: z.string(),
  rationale: z.string(),
  evidence: z.object({
    groups: z.array(z.object({ key: z.string(), label: z.string(), volume: z.number().int() })),
    messages: z.number().int(),
    sampleSubjects: z.array(z.string()),
  }),
  graph: z.record(z.string(), z.unknown()).describe('The draft workflow graph “Create this workflow” installs.'),
  template: z
    .object({ id: z.string(), slug: z.string(), name: z.string() })
    .nullable()
    .optional()
    .describe('The starter template this proposal installs (proposed without an AI model, from the groups’ figures); absent for a model’s proposal.'),
});
export type Opportunity = z.infer<typeof opportunitySchema>;

export const reportBodySchema = z.object({ stats: statsSchema, groups: z.array(groupSchema), opportunities: z.array(opportunitySchema) });
export type ReportBody = z.infer<typeof reportBodySchema>;

export const reportOutput = z.object({
  report: reportRefOutput.extend({
    options: z.object({ windowDays: z.number().int(), minGroupVolume: z.number().int() }),
    progress: z.object({ phase: z.string().nullable(), batchesDone: z.number().int(), batches: z.number().int() }),
    body: reportBodySchema.nullable(),
    llmOutcome: llmOutcomeSchema.nullable(),
    transcript: z.array(z.unknown()).optional().describe('Raw model exchanges: administrators only.'),
  }),
});
export type ReportOutput = z.infer<typeof reportOutput>;

export const createFromOpportunityOutput = z.object({ workflowId: z.string() });
