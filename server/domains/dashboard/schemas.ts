/**
 * The dashboard's answers (spec: Endpoints → Dashboard). Executions and mail are the spec's shapes;
 * the AI answer is ours, in the same style: totals of the window and of the previous period,
 * breakdowns, one value per bucket, and the monthly budgets.
 */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { executionStatuses } from '../executions/schemas';
import { journalOutcomes } from '../journal/schemas';
import { windowOutput } from './window';

const count = z.number().int().min(0);
const usd = z.number().min(0);

// ----- executions -----

const executionTotals = z.object({
  total: count,
  byStatus: z.array(z.object({ status: z.enum(executionStatuses), count })).describe('Every status, zeros included, in the order queued, running, waiting, succeeded, failed, cancelled.'),
  successRate: z.number().min(0).max(1).nullable().describe('succeeded / (succeeded + failed); null when no run ended either way.'),
  medianDurationMs: z.number().min(0).nullable().describe('Median of finished runs’ `finishedAt − startedAt`; null when none finished.'),
});

const workflowFigures = z.object({
  workflowId: z.uuid(),
  name: z.string(),
  memberName: z.string().nullable(),
  total: count,
  succeeded: count,
  failed: count,
  lastRunAt: isoDateTime.nullable(),
});

export const executionsOutput = z.object({
  window: windowOutput,
  current: executionTotals,
  previous: executionTotals,
  series: z.array(z.object({ status: z.enum(executionStatuses), values: z.array(count) })),
  topWorkflows: z.array(workflowFigures),
  failingWorkflows: z.array(workflowFigures),
  recentFailures: z.array(
    z.object({
      executionId: z.uuid(),
      /** Ours: the incident to acknowledge in place (`POST /api/v1/executions/incidents/{id}/acknowledge`). */
      incidentId: z.uuid().nullable(),
      workflowId: z.uuid(),
      workflowName: z.string(),
      memberName: z.string().nullable(),
      failedAt: isoDateTime,
      errorCode: z.string(),
      errorSummary: z.string(),
      nodeId: z.string().nullable(),
      nodeName: z.string().nullable(),
      acknowledged: z.boolean(),
    }),
  ),
});

// ----- mail -----

const mailTotals = z.object({
  received: count,
  byOutcome: z.array(z.object({ outcome: z.enum(journalOutcomes), count })),
  automatedEmails: count,
  draftsPrepared: count,
  sentByWorkflows: count,
});

export const mailOutput = z.object({
  window: windowOutput,
  current: mailTotals,
  previous: mailTotals,
  series: z.object({ received: z.array(count), dispatched: z.array(count) }),
});

// ----- AI (ours) -----

const aiFigures = z.object({
  calls: count,
  inputTokens: count,
  outputTokens: count,
  reasoningTokens: count,
  costUsd: usd.describe('Sum of the priced calls (instance and members’ own keys).'),
  unpricedCalls: count.describe('Calls whose price is unknown (a local model): their cost is not counted, never guessed.'),
});

const aiTotals = aiFigures.extend({
  instanceCostUsd: usd.describe('What the instance paid: the part budgets count.'),
  memberKeys: z.object({ calls: count, costUsd: usd }).describe('Calls on members’ own keys: their accounts paid, outside the budgets.'),
});

const monthlyBudget = z.object({
  limitUsd: usd.nullable().describe('Null: no budget.'),
  spentUsd: usd,
});

export const aiOutput = z.object({
  window: windowOutput,
  current: aiTotals,
  previous: aiTotals,
  byModel: z.array(aiFigures.extend({ provider: z.string(), model: z.string() })),
  byPurpose: z.array(aiFigures.extend({ purpose: z.string() })),
  byMember: z.array(aiFigures.extend({ memberId: z.uuid(), memberName: z.string().nullable() })).describe('Administrators only; empty for members.'),
  series: z.object({ calls: z.array(count), costUsd: z.array(usd) }),
  budgets: z.object({
    month: z.string().describe('The current calendar month in UTC, `YYYY-MM` (budgets are monthly, in UTC).'),
    instance: monthlyBudget.describe('The instance-paid spend of the month against the instance budget.'),
    member: monthlyBudget.extend({ memberId: z.uuid() }).describe('One member’s instance-paid spend against the per-member budget: the reader, or `memberId` for an administrator.'),
  }),
});

export type ExecutionsFigures = z.output<typeof executionsOutput>;
export type MailFigures = z.output<typeof mailOutput>;
export type AiFigures = z.output<typeof aiOutput>;
