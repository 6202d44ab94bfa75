import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { testLlmConnection } from './connection-test';
import { getRouting, putRouting } from './routing';
import {
  adminConnectionListOutput,
  connectionTestOutput,
  createLlmConnectionInput,
  deleteLlmConnectionOutput,
  llmConnectionAdmin,
  putRoutingInput,
  routingOutput,
  updateLlmConnectionInput,
} from './schemas';
import { createLlmConnection, deleteLlmConnection, listAdminConnections, makeDefaultConnection, updateLlmConnection } from './service';
import { docs } from './admin-docs';

const tag = 'AI models';
const adminRead = { kind: 'scope', scope: 'admin:read', admin: true } as const;
const adminWrite = { kind: 'scope', scope: 'admin:write', admin: true } as const;

export const llmAdminRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/llm/connections',
        access: adminRead,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(adminConnectionListOutput)
    .query(() => listAdminConnections()),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/llm/connections',
        access: adminWrite,
        idempotent: true,
        status: 201,
        errors: ['llm.encryption_disabled', 'llm.invalid_base_url', 'llm.api_key_required', 'llm.connection_label_taken'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createLlmConnectionInput)
    .output(llmConnectionAdmin)
    .mutation(({ ctx, input }) => createLlmConnection(actorOf(ctx), input, ctx.ip)),

  update: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/admin/llm/connections/{id}',
        access: adminWrite,
        errors: ['llm.connection_not_found', 'llm.encryption_disabled', 'llm.invalid_base_url', 'llm.api_key_required', 'llm.connection_label_taken'],
        tag,
        summary: docs.update.summary,
        description: docs.update.description,
      }),
    )
    .input(updateLlmConnectionInput)
    .output(llmConnectionAdmin)
    .mutation(({ ctx, input }) => updateLlmConnection(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/admin/llm/connections/{id}',
        access: adminWrite,
        errors: ['llm.connection_not_found'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(uuidParam)
    .output(deleteLlmConnectionOutput)
    .mutation(({ ctx, input }) => deleteLlmConnection(actorOf(ctx), input.id, ctx.ip)),

  test: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/llm/connections/{id}/test',
        access: adminWrite,
        errors: ['llm.connection_not_found'],
        tag,
        summary: docs.test.summary,
        description: docs.test.description,
      }),
    )
    .input(uuidParam)
    .output(connectionTestOutput)
    .mutation(({ ctx, input }) => testLlmConnection(actorOf(ctx), input.id, ctx.ip)),

  makeDefault: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/llm/connections/{id}/default',
        access: adminWrite,
        errors: ['llm.connection_not_found'],
        tag,
        summary: docs.makeDefault.summary,
        description: docs.makeDefault.description,
      }),
    )
    .input(uuidParam)
    .output(llmConnectionAdmin)
    .mutation(({ ctx, input }) => makeDefaultConnection(actorOf(ctx), input.id, ctx.ip)),

  getRouting: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/llm/routing',
        access: adminRead,
        tag,
        summary: docs.getRouting.summary,
        description: docs.getRouting.description,
      }),
    )
    .output(routingOutput)
    .query(() => getRouting()),

  putRouting: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/admin/llm/routing',
        access: adminWrite,
        errors: ['llm.connection_not_found', 'llm.model_not_allowed'],
        tag,
        summary: docs.putRouting.summary,
        description: docs.putRouting.description,
      }),
    )
    .input(putRoutingInput)
    .output(routingOutput)
    .mutation(({ ctx, input }) => putRouting(actorOf(ctx), input, ctx.ip)),
});
