import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { approvalPageOutput, decideApprovalInput, decideApprovalOutput, listApprovalsInput } from './schemas';
import { decideApproval, listApprovals } from './service';
import { docs } from './docs';

const tag = 'Approvals';

export const approvalsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/approvals',
        access: { kind: 'scope', scope: 'approvals:read' },
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listApprovalsInput)
    .output(approvalPageOutput)
    .query(({ ctx, input }) => listApprovals(actorOf(ctx), input)),

  decide: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/approvals/{id}/decide',
        access: { kind: 'scope', scope: 'approvals:write' },
        idempotent: true,
        errors: ['approval.not_found', 'approval.already_decided'],
        tag,
        summary: docs.decide.summary,
        description: docs.decide.description,
      }),
    )
    .input(decideApprovalInput)
    .output(decideApprovalOutput)
    .mutation(({ ctx, input }) => decideApproval(actorOf(ctx), input.id, input.decision)),
});
