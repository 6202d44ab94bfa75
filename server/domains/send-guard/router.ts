import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { holdOutput, holdPageOutput, listHoldsInput } from './schemas';
import { listHolds, releaseHold } from './service';
import { docs } from './docs';

const tag = 'Sending';
const read = { kind: 'scope', scope: 'review:read' } as const;
const write = { kind: 'scope', scope: 'review:write' } as const;

export const sendGuardRouter = router({
  listHolds: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/sending/holds',
        access: read,
        tag,
        summary: docs.listHolds.summary,
        description: docs.listHolds.description,
      }),
    )
    .input(listHoldsInput)
    .output(holdPageOutput)
    .query(({ ctx, input }) => listHolds(actorOf(ctx), input)),

  releaseHold: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/sending/holds/{id}/release',
        access: write,
        errors: ['send_hold.not_found'],
        tag,
        summary: docs.releaseHold.summary,
        description: docs.releaseHold.description,
      }),
    )
    .input(uuidParam)
    .output(holdOutput)
    .mutation(({ ctx, input }) => releaseHold(actorOf(ctx), input.id)),
});
