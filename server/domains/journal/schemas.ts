import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime } from '../../core/http/schemas';

export const journalOutcomes = ['excluded_org', 'excluded_member', 'guardrail', 'unmatched', 'dispatched'] as const;

const outcome = z.enum(journalOutcomes).describe('Why the message did or did not start runs.');
const ruleRef = z
  .string()
  .nullable()
  .describe('The rule that decided: `exclusion:<id>`, `guardrail:from_self`, `guardrail:delivery_report` (a bounce or read receipt), `guardrail:auto_reply`, `guardrail:no_reply`, `guardrail:mailing_list`, `guardrail:bulk` (a newsletter or other mass mail); null for `unmatched` and `dispatched`.');

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
  })
  .meta({ id: 'JournalEntry' });

export const listJournalInput = z.object({
  mailboxId: z.uuid().optional(),
  outcome: z.enum(journalOutcomes).optional(),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 200),
});

export type ListJournalQuery = z.infer<typeof listJournalInput>;

export const journalPageOutput = z.object({ entries: z.array(journalEntrySchema), nextCursor: z.string().nullable() });
