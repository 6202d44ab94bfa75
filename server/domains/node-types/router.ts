import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { listNodeTypesInput, nodeTypeListOutput } from './schemas';
import { listNodeTypes } from './service';
import { docs } from './docs';

const tag = 'Workflows';

export const nodeTypesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/node-types',
        access: { kind: 'scope', scope: 'workflows:read' },
        errors: ['request.bad_request'],
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listNodeTypesInput)
    .output(nodeTypeListOutput)
    .query(({ ctx, input }) => listNodeTypes(input, actorOf(ctx).member.role)),
});
