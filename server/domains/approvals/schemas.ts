import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime } from '../../core/http/schemas';

export const approvalStatuses = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export const approvalTriggerSchema = z
  .object({
    messageId: z.uuid(),
    fromName: z.string().nullable(),
    fromEmail: z.string(),
    subject: z.string(),
    receivedAt: isoDateTime,
  })
  .describe('The message that started the run, from the mirror.');

export const approvalSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(approvalStatuses),
    title: z.string(),
    details: z.string().nullable(),
    executionId: z.uuid(),
    workflowId: z.uuid(),
    workflowName: z.string(),
    nodeId: z.string(),
    trigger: approvalTriggerSchema.nullable().describe('Null when the run was not started by a mail (or the message left the mirror).'),
    expiresAt: isoDateTime,
    decidedBy: z.string().nullable().describe('Who decided: the member’s email, the approver’s address (email link), or null (expired).'),
    decidedAt: isoDateTime.nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Approval' });

export type ApprovalOutput = z.infer<typeof approvalSchema>;

export const listApprovalsInput = z.object({
  status: z.enum(approvalStatuses).default('pending').describe('`pending` (default), `approved`, `rejected` or `expired`.'),
  messageId: z.uuid().optional().describe('Keeps the approvals of runs started by this message (one page, `nextCursor` null).'),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 100),
});

export type ListApprovalsQuery = z.infer<typeof listApprovalsInput>;

export const approvalPageOutput = z.object({ approvals: z.array(approvalSchema), nextCursor: z.string().nullable() });

export const decideApprovalInput = z.object({
  id: z.uuid(),
  decision: z.enum(['approve', 'reject']).describe('`approve` or `reject`.'),
});

export const decideApprovalOutput = z.object({
  approval: approvalSchema,
  resumed: z.boolean().describe('True when the waiting run was resumed (queued again; its continuation arrives over the real-time channel).'),
});
