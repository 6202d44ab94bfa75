/**
 * Ask for approval: the run waits (`waiting`: no slot, no working time) until the owner decides in
 * the application, an approver decides from the emailed link, or the deadline passes. `approve`
 * carries on the approve port; a rejection or an expiry is not a failure: the reject port's data
 * says which ({decision: 'rejected' | 'expired', reason, decidedBy}).
 *
 * First run: the `approvals` capability writes the Approval (once per step), its single-use link,
 * the `approval.pending` notification and, with approvers, the approval email; then the step
 * suspends until the deadline. Resume `decision` → the decided port; resume `timer` → the approval
 * expires (unless a decision got there first) and the reject port runs.
 *
 * In a test run nothing is asked, written or sent: the step takes the approve port at once with
 * `{decision: 'approved', simulated: true}`.
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import type { ApprovalOutcome } from '../../contract/capabilities';

const unitMs = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
export const maxApprovalMs = 30 * unitMs.days;

const expiresIn = z
  .strictObject({
    amount: z.number().int().min(1).max(43_200).describe('How many units the approval stays open.'),
    unit: z.enum(['minutes', 'hours', 'days']).describe('The unit of `amount`.'),
  })
  .refine((value) => value.amount * unitMs[value.unit] <= maxApprovalMs, { message: 'An approval stays open at most 30 days.' })
  .default({ amount: 3, unit: 'days' })
  .describe('How long the approval stays open before it expires (default 3 days, at most 30 days).');

type Decision = { decision?: unknown; decidedBy?: unknown };

function decidedPort(approvalId: string | null, outcome: Pick<ApprovalOutcome, 'status' | 'decidedBy' | 'reason'>) {
  if (outcome.status === 'approved') return { output: 'approve', data: { decision: 'approved', approvalId, decidedBy: outcome.decidedBy } };
  if (outcome.status === 'rejected') return { output: 'reject', data: { decision: 'rejected', approvalId, reason: outcome.reason, decidedBy: outcome.decidedBy } };
  return { output: 'reject', data: { decision: 'expired', approvalId, reason: outcome.reason ?? 'expired', decidedBy: null } };
}

export const approvalRequestNode = defineNode({
  type: 'approval.request',
  version: 1,
  category: 'approval',
  label: { en: 'Ask for approval', fr: 'Demander une approbation' },
  description: {
    en: 'Pauses the run until someone approves or rejects (in the application, or from an emailed link), or the approval expires; continues on the approve or reject output. A test run approves at once without asking anyone.',
    fr: 'Met l’exécution en pause jusqu’à ce que quelqu’un approuve ou refuse (dans l’application, ou par un lien reçu par e-mail), ou que l’approbation expire ; continue par la sortie approuver ou refuser. Une exécution de test approuve aussitôt sans rien demander.',
  },
  params: z.strictObject({
    title: z.string().trim().min(1).max(200).describe('What is to be approved (1-200 characters; expressions allowed).'),
    details: z.string().max(2_000).optional().describe('More context for the approver (at most 2,000 characters; expressions allowed).'),
    expiresIn,
    approverEmails: z
      .array(z.email().max(254).describe('An approver’s address.'))
      .max(10)
      .default([])
      .describe('Up to 10 addresses that receive the approval email and may decide from its link. The owner can always decide in the application.'),
    mailboxId: z
      .string()
      .max(100)
      .optional()
      .describe('The mailbox the approval email goes out from; default the run’s mailbox, else your first connected mailbox.'),
  }),
  outputs: ['approve', 'reject'],
  effect: 'keyed',
  requires: [],
  persistsStepFirst: true,
  scopes: ['approvals:write'],
  mailboxParams: ['mailboxId'],
  async execute({ params, execution, node, resume, state, capabilities, now }) {
    if (execution.simulated) return { output: 'approve', data: { decision: 'approved', simulated: true } };
    const kept = (state && typeof state === 'object' ? state : {}) as { approvalId?: string };
    const approvalId = kept.approvalId ?? null;

    if (resume?.reason === 'decision') {
      const payload = (resume.payload && typeof resume.payload === 'object' ? resume.payload : {}) as Decision;
      const decidedBy = typeof payload.decidedBy === 'string' ? payload.decidedBy : null;
      return decidedPort(approvalId, { status: payload.decision === 'approve' ? 'approved' : 'rejected', decidedBy, reason: null });
    }
    if (resume?.reason === 'timer') {
      // A decision that landed just before the deadline wins: expire() answers it as it stands.
      const outcome = await capabilities.approvals.expire({ nodeId: node.id });
      return decidedPort(outcome.approvalId, outcome);
    }

    const outcome = await capabilities.approvals.request({
      nodeId: node.id,
      title: params.title,
      details: params.details?.trim() ? params.details : null,
      expiresAt: new Date(now().getTime() + params.expiresIn.amount * unitMs[params.expiresIn.unit]),
      approverEmails: [...new Set(params.approverEmails.map((address) => address.toLowerCase()))],
      mailboxId: params.mailboxId?.trim() ? params.mailboxId.trim() : null,
    });
    // Decided (or ended) before the step could wait: take the port now.
    if (outcome.status !== 'pending') return decidedPort(outcome.approvalId, outcome);
    const until = new Date(outcome.expiresAt);
    return { kind: 'suspend', mode: 'waiting', until, state: { approvalId: outcome.approvalId, expiresAt: outcome.expiresAt } };
  },
});
