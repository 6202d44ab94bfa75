/**
 * Undoing a run's mailbox changes (issue 24 §4; the spec does not show these routes): the preview, the
 * undo of one run and the bulk undo of a workflow's runs in a window. The rules: ./plan.ts.
 */
import { z } from 'zod';
import { isoDateTime, isoDateTimeInput } from '../../../core/http/schemas';

const messageAction = z.object({
  kind: z.literal('message'),
  messageId: z.string(),
  action: z.enum(['move', 'markRead', 'markUnread', 'flag', 'unflag']).optional().describe('The webmail action; absent: labels only.'),
  folder: z.string().optional().describe('`move`: the folder key the message is moved back to.'),
  labels: z.object({ add: z.array(z.string()), remove: z.array(z.string()) }).optional(),
});
const discardAction = z.object({ kind: z.literal('discard_draft'), outboundId: z.string().describe('The review item rejected (out of review, its Drafts copy removed).') });

const itemBase = {
  effectKey: z.string(),
  executionId: z.string().describe('The run whose step made the effect: this run, or a run it called (a loop iteration, a sub-workflow run).'),
  nodeId: z.string(),
  effect: z.string().describe('The effect’s kind: `mail.move`, `mail.label`, `mail.flag`, `mail.markRead`, `mail.draft`…'),
  description: z.string(),
  messageId: z.string().nullable(),
  outboundId: z.string().nullable(),
  subject: z.string().nullable().describe('The subject of the message (or of the draft) the item is about; null when unknown (a message no longer mirrored).'),
  action: z.discriminatedUnion('kind', [messageAction, discardAction]).nullable().describe('The inverse action; null when none could be named.'),
};

const skipReasonText =
  '`not_recorded` (a record from before undo records, or a repeat), `message_gone`, `moved_since`, `read_changed`, `flag_changed`, ' +
  '`labels_changed`, `folder_gone` (the folder it came from), `no_change` (the effect changed nothing), `draft_gone`, `send_failed`';

export const undoPreviewItemSchema = z.object({
  ...itemBase,
  status: z.enum(['will_undo', 'skip']),
  reason: z.string().nullable().describe(`Why it is skipped: ${skipReasonText}.`),
});

export const undoResultItemSchema = z.object({
  ...itemBase,
  status: z.enum(['undone', 'skipped', 'failed']),
  reason: z
    .string()
    .nullable()
    .describe(`Skipped: ${skipReasonText}. Failed: the mailbox's refusal (\`mailbox_disconnected\`, \`unknown_folder\`…) or the error code.`),
});

export const sentItemSchema = z.object({
  effectKey: z.string(),
  executionId: z.string(),
  nodeId: z.string(),
  effect: z.string(),
  outboundId: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  sendStatus: z.string().describe('`done`, `running`, `unknown`, or `pending`/`held` for a send leaving without review.'),
});

export const undoPreviewOutput = z.object({
  executionId: z.uuid(),
  items: z.array(undoPreviewItemSchema).describe('Newest effect first: the order the undo makes them in.'),
  sent: z.array(sentItemSchema).describe('Messages the run sent: a send cannot be undone.'),
  others: z.number().int().min(0).describe('Effects that are not mailbox changes (table writes, HTTP calls, notifications): never undone.'),
  counts: z.object({ willUndo: z.number().int().min(0), skip: z.number().int().min(0), sent: z.number().int().min(0) }),
  undoneAt: isoDateTime.nullable().describe('When this run was undone already (an undo now answers that result again), else null.'),
});

export const undoOutput = z.object({
  executionId: z.uuid(),
  items: z.array(undoResultItemSchema),
  sent: z.array(sentItemSchema),
  counts: z.object({ undone: z.number().int().min(0), skipped: z.number().int().min(0), failed: z.number().int().min(0), sent: z.number().int().min(0) }),
  undoneAt: isoDateTime,
  replayed: z.boolean().describe('true: the run was undone before; this is that result, nothing was done now.'),
});

/** A bulk window spans 30 days at most. */
export const bulkUndoMaxDays = 30;

export const bulkUndoInput = z
  .object({
    id: z.uuid(),
    from: isoDateTimeInput.describe('Runs created at or after this instant.'),
    to: isoDateTimeInput.optional().describe(`Runs created before this instant; default now. The window spans ${bulkUndoMaxDays} days at most.`),
    limit: z.number().int().min(1).max(100).default(20).describe('Runs undone per call, newest first: 1 to 100, default 20.'),
    dryRun: z.boolean().default(false).describe('Preview each run instead of undoing it.'),
  })
  .refine((input) => !input.to || new Date(input.to).getTime() > new Date(input.from).getTime(), { message: '`to` must be after `from`.', path: ['to'] })
  .refine((input) => (input.to ? new Date(input.to).getTime() : Date.now()) - new Date(input.from).getTime() <= bulkUndoMaxDays * 86_400_000, {
    message: `The window spans ${bulkUndoMaxDays} days at most.`,
    path: ['from'],
  });
export type BulkUndoInput = Omit<z.infer<typeof bulkUndoInput>, 'id'>;

const runCounts = z.object({
  undone: z.number().int().min(0).describe('Items undone (dry run: that would be).'),
  skipped: z.number().int().min(0),
  failed: z.number().int().min(0),
  sent: z.number().int().min(0),
});

export const bulkUndoOutput = z.object({
  count: z.number().int().min(0).describe('Runs handled by this call.'),
  hasMore: z.boolean().describe('More runs of the window remain: call again (runs already undone are left out of the window).'),
  dryRun: z.boolean(),
  runs: z.array(
    z.object({
      executionId: z.uuid(),
      createdAt: isoDateTime.describe('When the run was created.'),
      subject: z.string().nullable().describe('The subject of the email that started it; null for a run no email started.'),
      outcome: z.enum(['undone', 'already_undone', 'preview', 'refused']),
      counts: runCounts.nullable().describe('Null when refused.'),
      error: z.object({ code: z.string(), reason: z.string().nullable() }).nullable().describe('Why the run was refused (`execution.undo_in_progress`…).'),
    }),
  ),
  totals: runCounts,
});

/** What the run's undo record says, on the run's detail (GET /api/v1/executions/{id}): null when never undone. */
export const executionUndoSummarySchema = z
  .object({
    status: z
      .enum(['running', 'interrupted', 'done'])
      .describe('`running`: an undo is making its items now; `interrupted`: one stopped before the end (undo again to finish it); `done`: undone, once and for all.'),
    undoneAt: isoDateTime.nullable().describe('When the undo finished; null until it has.'),
    by: z.object({
      memberId: z.uuid().describe('The member who undid the run (its owner).'),
      apiKeyId: z.uuid().nullable().describe('The API key the undo was made with; null: in the app.'),
    }),
    counts: z
      .object({
        undone: z.number().int().min(0).describe('Changes put back.'),
        skipped: z.number().int().min(0).describe('Changes left as they are (the message changed since, or nothing to put back).'),
        failed: z.number().int().min(0).describe('Changes the mailbox refused.'),
        sent: z.number().int().min(0).describe('Messages the run sent: never undone.'),
      })
      .describe('So far, while the undo is not done.'),
  })
  .meta({ id: 'ExecutionUndoSummary' });
