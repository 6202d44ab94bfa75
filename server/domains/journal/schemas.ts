import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime, isoDateTimeInput } from '../../core/http/schemas';

export const journalOutcomes = ['excluded_org', 'excluded_member', 'guardrail', 'unmatched', 'dispatched'] as const;

const outcome = z.enum(journalOutcomes).describe('Why the message did or did not start runs.');
const ruleRef = z
  .string()
  .nullable()
  .describe('The rule that decided: `exclusion:<id>`, `guardrail:from_self`, `guardrail:delivery_report` (a bounce or read receipt), `guardrail:auto_reply`, `guardrail:no_reply`, `guardrail:mailing_list`, `guardrail:bulk` (a newsletter or other mass mail); null for `unmatched` and `dispatched`.');

export const workflowVerdicts = ['started', 'would_start', 'paused', 'excluded', 'guardrail', 'filtered', 'other_mailbox', 'invalid_trigger'] as const;

const workflowVerdict = z.object({
  workflowId: z.uuid(),
  workflowName: z.string(),
  verdict: z
    .enum(workflowVerdicts)
    .describe(
      '`started`: a run started for the message; otherwise what the published trigger makes of the message now, by the dispatcher’s rules: `paused` (the workflow is paused), `excluded` (a sender exclusion), `guardrail` (a kind of mail the trigger leaves out), `filtered` (a trigger filter did not match), `other_mailbox` (the trigger watches other mailboxes), `would_start` (it matches now: the message was not dispatched as new mail, or the workflow was published or changed since), `invalid_trigger`.',
    ),
  ruleRef: z.string().nullable().describe('`exclusion:<id>` or `guardrail:<name>` (as in `entry.ruleRef`); null otherwise.'),
  param: z
    .string()
    .nullable()
    .describe('The mail trigger parameter that decided: the filter that did not match (`bulkOnly`, `folders`, `from`, `subject`, `hasAttachments`, `requireSignals`, `excludeSignals`), the option that lets the guarded kind through (`includeAutoReplies`, `includeNoReply`, `includeMailingLists`; null for `guardrail:from_self`, which nothing lets through), or `mailboxIds`.'),
});
export type WorkflowVerdictOutput = z.infer<typeof workflowVerdict>;

export const messageJournalOutput = z.object({
  entry: z.object({ id: z.uuid(), outcome, ruleRef, createdAt: isoDateTime }).nullable().describe('Null when the message was never dispatched (mirrored by the first sync, a backfill or a resync, or not handled yet).'),
  executions: z.array(
    z.object({
      id: z.uuid(),
      workflowId: z.uuid(),
      workflowName: z.string().describe('Empty when the workflow was deleted.'),
      status: z.string(),
      simulated: z.boolean(),
      createdAt: isoDateTime,
      finishedAt: isoDateTime.nullable(),
    }),
  ),
  workflows: z.array(workflowVerdict).describe('Each of your published mail workflows (at most 100, oldest first): whether it started on the message, and if not, why.'),
});

export const journalEntrySchema = z
  .object({
    id: z.uuid(),
    messageId: z.uuid(),
    mailboxId: z.uuid(),
    outcome,
    ruleRef,
    createdAt: isoDateTime,
    subject: z.string().nullable().describe('Null when the message is gone from the mirror.'),
    fromEmail: z.string().nullable(),
    threadId: z.uuid().nullable().describe('The message’s conversation in the webmail; null when the message is gone from the mirror.'),
  })
  .meta({ id: 'JournalEntry' });

export const listJournalInput = z
  .object({
    mailboxId: z.uuid().optional(),
    outcome: z.enum(journalOutcomes).optional(),
    from: isoDateTimeInput.optional().describe('Entries created at or after this instant.'),
    to: isoDateTimeInput.optional().describe('Entries created before this instant (exclusive).'),
    cursor: z.string().max(500).optional(),
    limit: limitParam(50, 200),
  })
  .superRefine((query, issues) => {
    if (query.from !== undefined && query.to !== undefined && Date.parse(query.from) >= Date.parse(query.to)) {
      issues.addIssue({ code: 'custom', path: ['to'], message: '`to` must be after `from`.' });
    }
  });

export type ListJournalQuery = z.infer<typeof listJournalInput>;

export const journalPageOutput = z.object({ entries: z.array(journalEntrySchema), nextCursor: z.string().nullable() });
