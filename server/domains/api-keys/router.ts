import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  adminKeyListOutput,
  adminKeyOutput,
  createApiKeyInput,
  createApiKeyOutput,
  keyListOutput,
  keyOutput,
} from './schemas';
import { createKey, listAllKeys, listOwnKeys, revokeAnyKey, revokeOwnKey } from './service';
import { docs } from './docs';

const tag = 'API keys';

export const apiKeysRouter = router({
  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/api-keys',
        access: { kind: 'session' },
        status: 201,
        errors: ['api_key.limit_reached'],
        tag,
        summary: docs.create.summary,
        description: docs.create.description,
      }),
    )
    .input(createApiKeyInput)
    .output(createApiKeyOutput)
    .mutation(({ ctx, input }) => createKey(actorOf(ctx), input, ctx.ip)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/api-keys',
        access: { kind: 'session' },
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(keyListOutput)
    .query(({ ctx }) => listOwnKeys(actorOf(ctx))),

  revoke: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/api-keys/{id}/revoke',
        access: { kind: 'session' },
        errors: ['api_key.not_found'],
        tag,
        summary: docs.revoke.summary,
        description: docs.revoke.description,
      }),
    )
    .input(uuidParam)
    .output(keyOutput)
    .mutation(({ ctx, input }) => revokeOwnKey(actorOf(ctx), input.id, ctx.ip)),

  adminList: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/api-keys',
        access: { kind: 'scope', scope: 'admin:read', admin: true },
        tag,
        summary: docs.adminList.summary,
        description: docs.adminList.description,
      }),
    )
    .output(adminKeyListOutput)
    .query(() => listAllKeys()),

  adminRevoke: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/admin/api-keys/{id}/revoke',
        access: { kind: 'scope', scope: 'admin:write', admin: true },
        errors: ['api_key.not_found'],
        tag,
        summary: docs.adminRevoke.summary,
        description: docs.adminRevoke.description,
      }),
    )
    .input(uuidParam)
    .output(adminKeyOutput)
    .mutation(({ ctx, input }) => revokeAnyKey(actorOf(ctx), input.id, ctx.ip)),
});
