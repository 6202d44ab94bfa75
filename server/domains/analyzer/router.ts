/** The mailbox analyzer's routes: the spec's analyze and report, and ours to install an opportunity. */
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { analyzeInput, analyzeOutput, createFromOpportunityOutput, mailboxIdInput, opportunityInput, reportOutput } from './schemas';
import { analyzeMailbox, createFromOpportunity, getLatestReport } from './service';
import { docs } from './docs';

const tag = 'Mailbox analyzer';
const read = { kind: 'scope', scope: 'analyzer:read' } as const;
const write = { kind: 'scope', scope: 'analyzer:write' } as const;

/** Whether a raw analyze input asks for a new analysis even if today's report exists. */
function isForced(rawInput: unknown): boolean {
  return typeof rawInput === 'object' && rawInput !== null && (rawInput as { force?: unknown }).force === true;
}

export const analyzerRouter = router({
  analyze: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/analyze',
        access: write,
        // Only a forced analysis is throttled: without `force`, today's report is reused.
        throttle: { bucket: 'forced_analyses', counts: isForced },
        idempotent: true,
        status: 202,
        errors: ['analyzer.mailbox_not_found'],
        tag,
        summary: docs.analyze.summary,
        description: docs.analyze.description,
      }),
    )
    .input(analyzeInput)
    .output(analyzeOutput)
    .mutation(({ ctx, input }) => analyzeMailbox(actorOf(ctx), input)),

  report: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/mailboxes/{id}/analyzer/report',
        access: read,
        errors: ['analyzer.mailbox_not_found', 'analyzer.report_not_found'],
        tag,
        summary: docs.report.summary,
        description: docs.report.description,
      }),
    )
    .input(mailboxIdInput)
    .output(reportOutput)
    .query(({ ctx, input }) => getLatestReport(actorOf(ctx), input.id)),

  createWorkflow: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/analyzer/opportunities/{key}/create',
        access: { kind: 'scope', scope: 'workflows:write' },
        status: 201,
        errors: ['analyzer.mailbox_not_found', 'analyzer.report_not_found', 'analyzer.opportunity_not_found', 'workflow.invalid_graph'],
        tag,
        summary: docs.createWorkflow.summary,
        description: docs.createWorkflow.description,
      }),
    )
    .input(opportunityInput)
    .output(createFromOpportunityOutput)
    .mutation(({ ctx, input }) => createFromOpportunity(actorOf(ctx), input, ctx.ip)),
});
