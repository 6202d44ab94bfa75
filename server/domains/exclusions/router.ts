import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { createExclusionInput, exclusionListOutput, exclusionOutput } from './schemas';
import { createExclusion, deleteExclusion, listExclusions } from './service';
import { docs } from './docs';

const tag = 'Exclusions';
const read = { kind: 'scope', scope: 'messages:read' } as const;
const write = { kind: 'scope', scope: 'messages:write' } as const;
const adminRead = { kind: 'scope', scope: 'admin:read', admin: true } as const;
const adminWrite = { kind: 'scope', scope: 'admin:write', admin: true } as const;

export const exclusionsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/exclusions',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(exclusionListOutput)
    .query(({ ctx }) => listExclusions(actorOf(ctx))),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/exclusions',
        access: write,
        status: 201,
        errors: ['exclusion.duplicate', 'exclusion.limit_reached'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createExclusionInput)
    .output(exclusionOutput)
    .mutation(({ ctx, input }) => createExclusion(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/exclusions/{id}',
        access: write,
        errors: ['exclusion.not_found'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(uuidParam)
    .output(exclusionOutput)
    .mutation(({ ctx, input }) => deleteExclusion(actorOf(ctx), input.id, ctx.ip)),

  adminList: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/exclusions',
        access: adminRead,
        tag,
        summary: docs.adminList.summary,
        description: docs.adminList.description,
      }),
    )
    .output(exclusionListOutput)
    .query(({ ctx }) => listExclusions(actorOf(ctx), true)),

  adminCreate: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/exclusions',
        access: adminWrite,
        status: 201,
        errors: ['exclusion.duplicate', 'exclusion.limit_reached'],
        tag,
        summary: docs.adminCreate.summary,
        description: docs.adminCreate.description,
      }),
    )
    .input(createExclusionInput)
    .output(exclusionOutput)
    .mutation(({ ctx, input }) => createExclusion(actorOf(ctx), input, ctx.ip, true)),

  adminDelete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/admin/exclusions/{id}',
        access: adminWrite,
        errors: ['exclusion.not_found'],
        tag,
        summary: docs.adminDelete.summary,
        description: docs.adminDelete.description,
      }),
    )
    .input(uuidParam)
    .output(exclusionOutput)
    .mutation(({ ctx, input }) => deleteExclusion(actorOf(ctx), input.id, ctx.ip, true)),
});
