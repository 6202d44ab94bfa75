import type { ErrorCode } from '../../core/errors/catalogue';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { aiFigures } from './ai';
import { executionFigures } from './executions';
import { mailFigures } from './mail';
import { dashboardQueryInput } from './query';
import { aiOutput, executionsOutput, mailOutput } from './schemas';
import { docs } from './docs';

const tag = 'Dashboard';
const access = { kind: 'scope', scope: 'dashboard:read' } as const;
const badRequestCode = 'dashboard.bad_request' as const;
const errors: ErrorCode[] = ['dashboard.bad_request', 'dashboard.forbidden'];

export const dashboardRouter = router({
  executions: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/executions',
        access,
        tag,
        badRequestCode,
        errors,
        summary: docs.executions.summary,
        description: docs.executions.description,
      }),
    )
    .input(dashboardQueryInput)
    .output(executionsOutput)
    .query(({ ctx, input }) => executionFigures(actorOf(ctx), input)),

  mail: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/mail',
        access,
        tag,
        badRequestCode,
        errors,
        summary: docs.mail.summary,
        description: docs.mail.description,
      }),
    )
    .input(dashboardQueryInput)
    .output(mailOutput)
    .query(({ ctx, input }) => mailFigures(actorOf(ctx), input)),

  ai: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/ai',
        access,
        tag,
        badRequestCode,
        errors,
        summary: docs.ai.summary,
        description: docs.ai.description,
      }),
    )
    .input(dashboardQueryInput)
    .output(aiOutput)
    .query(({ ctx, input }) => aiFigures(actorOf(ctx), input)),
});
