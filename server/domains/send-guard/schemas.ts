import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime } from '../../core/http/schemas';
import { holdReasons } from './rules';

export const sendHoldSchema = z
  .object({
    id: z.uuid(),
    reason: z
      .enum(holdReasons)
      .describe('`mailbox_hourly_cap`, `workflow_hourly_cap`, `auto_reply_loop` (replies to an auto-responder), `repeat_recipient` (one recipient again and again).'),
    mailboxId: z.uuid().nullable(),
    mailboxAddress: z.string().nullable(),
    workflowId: z.uuid().nullable().describe('Set when the hold keeps the sends of one workflow (its cap, a loop, a repeated recipient).'),
    workflowName: z.string().nullable(),
    heldCount: z.number().int().min(0).describe('Items the hold keeps now; for a released hold, the items it released.'),
    details: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
      .describe('What tripped it: `sends`, `limit`, `windowMinutes`, `counterpart` or `recipient`; `pausedWorkflow` (and `pausedWorkflowId`); after release `releasedCount`, `unpausedWorkflow`.'),
    createdAt: isoDateTime,
    releasedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'SendHold' });

export type SendHoldOutput = z.infer<typeof sendHoldSchema>;

export const listHoldsInput = z.object({
  status: z.enum(['open', 'all']).default('open').describe('`open` (default): holds not released yet; `all`: released ones too.'),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 100),
});

export type ListHoldsQuery = z.infer<typeof listHoldsInput>;

export const holdPageOutput = z.object({ items: z.array(sendHoldSchema), nextCursor: z.string().nullable() });
export const holdOutput = z.object({ hold: sendHoldSchema });
