/**
 * What the `approval.request` step does through its capability (server/engine-adapters/create.ts):
 * ask for a decision (once per step) and, when the deadline passes, expire it. See
 * server/engine/nodes/approval/request.node.ts for the step itself.
 */
import type { Approval } from '../../generated/prisma/client';
import { db } from '../../core/db';
import { isUniqueViolation } from '../../core/db/sql-state';
import { emitToMember } from '../../core/realtime/emit';
import type { ApprovalOutcome, ApprovalRequest } from '../../engine/contract/capabilities';
import { fail } from '../../engine/contract/failures';
import { currentBranding } from '../instance';
import { notify } from '../notifications';
import { createOutbound } from '../outbound';
import { findMemberMessageSubject } from '../mail';
import { createApproval, expirePendingStepApproval, findActiveMemberMailbox, findFirstActiveMailbox, findMemberMailbox, findRequestingRun, findStepApproval, findWorkflowName } from './repo';
import { approvalEmail } from './email';
import { hashLinkToken, newLinkToken } from './tokens';
import { isUuid } from '../../core/ids';

export interface ApprovalRun {
  executionId: string;
  memberId: string;
}

export type { ApprovalRequest };

export function outcomeOf(row: Approval): ApprovalOutcome {
  return {
    approvalId: row.id,
    status: row.status as ApprovalOutcome['status'],
    decidedBy: row.decidedBy,
    reason: row.reason,
    expiresAt: row.expiresAt.toISOString(),
  };
}

/**
 * The mailbox the approval email goes out from: the one named (the member's, connected), else the
 * run's mailbox when connected, else the member's first connected mailbox.
 */
async function senderMailbox(memberId: string, named: string | null, runMailboxId: string | null): Promise<{ id: string }> {
  if (named) {
    const mailbox = isUuid(named) ? await findMemberMailbox(memberId, named) : null;
    if (!mailbox) throw fail.permanent('mail.mailbox_required', { message: 'The chosen mailbox is not one of yours.', details: { path: 'params.mailboxId' } });
    if (mailbox.status !== 'active') throw fail.permanent('mail.mailbox_not_active', { details: { mailboxId: mailbox.id } });
    return mailbox;
  }
  if (runMailboxId) {
    const mailbox = await findActiveMemberMailbox(memberId, runMailboxId);
    if (mailbox) return mailbox;
  }
  const first = await findFirstActiveMailbox(memberId);
  if (!first) throw fail.permanent('mail.mailbox_required', { message: 'Approvers were given but you have no connected mailbox to send the approval email from.' });
  return first;
}

export async function requestApproval(run: ApprovalRun, input: ApprovalRequest): Promise<ApprovalOutcome> {
  const key = { executionId: run.executionId, nodeId: input.nodeId };
  const existing = await findStepApproval(key);
  if (existing) return outcomeOf(existing);

  const execution = await findRequestingRun(run.executionId);
  const workflow = await findWorkflowName(execution.workflowId);
  const workflowName = workflow?.name ?? '';
  const mailbox = input.approverEmails.length > 0 ? await senderMailbox(run.memberId, input.mailboxId, execution.mailboxId) : null;
  const message = execution.messageId
    ? await findMemberMessageSubject(run.memberId, execution.messageId)
    : null;
  const headline = execution.messageHeadline as { subject?: string | null } | null;
  const triggerSubject = message?.subject ?? headline?.subject ?? null;
  const token = newLinkToken();

  try {
    return await db().$transaction(async (tx) => {
      const row = await createApproval(tx, {
        memberId: run.memberId,
        executionId: run.executionId,
        workflowId: execution.workflowId,
        workflowName,
        nodeId: input.nodeId,
        title: input.title,
        details: input.details,
        approverEmails: input.approverEmails,
        linkTokenHash: hashLinkToken(token),
        triggerMessageId: message?.id ?? null,
        expiresAt: input.expiresAt,
      });
      await notify(
        {
          memberId: run.memberId,
          kind: 'approval.pending',
          severity: 'info',
          params: { approvalId: row.id, workflowName, subject: triggerSubject === null ? null : triggerSubject.slice(0, 120) },
          link: '/approvals',
        },
        tx,
      );
      await emitToMember(run.memberId, 'approval.changed', { approvalId: row.id, executionId: run.executionId, status: 'pending' }, tx);
      if (mailbox) {
        const content = approvalEmail({ token, title: input.title, details: input.details, workflowName, expiresAt: input.expiresAt, brandName: currentBranding().name });
        await createOutbound(
          {
            memberId: run.memberId,
            mailboxId: mailbox.id,
            mode: 'send',
            origin: 'approval',
            review: false,
            to: input.approverEmails,
            subject: content.subject,
            bodyText: content.bodyText,
            bodyHtml: content.bodyHtml,
            source: { executionId: run.executionId, workflowId: execution.workflowId, workflowName, nodeId: input.nodeId, nodeType: 'approval.request' },
            approvalId: row.id,
            dedupeKey: `approval:${row.id}`,
          },
          tx,
        );
      }
      return outcomeOf(row);
    });
  } catch (error) {
    // Another attempt of the same step won the race: its approval is the one.
    if (isUniqueViolation(error)) {
      const row = await findStepApproval(key);
      if (row) return outcomeOf(row);
    }
    throw error;
  }
}

/** The deadline passed: a pending approval becomes `expired` (reason `expired`); answers where it stands. */
export async function expireApproval(run: ApprovalRun, nodeId: string): Promise<ApprovalOutcome> {
  return db().$transaction(async (tx) => {
    const moved = await expirePendingStepApproval(tx, { executionId: run.executionId, nodeId });
    const row = await findStepApproval({ executionId: run.executionId, nodeId }, tx);
    if (!row) throw fail.permanent('approval_expired', { message: 'The approval of this step is missing.' });
    if (moved.count > 0) await emitToMember(row.memberId, 'approval.changed', { approvalId: row.id, executionId: row.executionId, status: 'expired' }, tx);
    return outcomeOf(row);
  });
}

// The run-end hooks (server/engine-adapters/run-end-hooks.ts): a run's pending approvals end with it.
export { expireApprovalsOfCancelledRuns, expireApprovalsOfEndedRuns } from './expire';
