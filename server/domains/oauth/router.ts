import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { oauthAppSchema, providerParam, putOAuthAppInput, startFlowInput, startFlowOutput } from './schemas';
import { getOAuthApp, putOAuthApp, startOAuthFlow } from './service';
import { docs } from './docs';

const tag = 'OAuth';

export const oauthRouter = router({
  getApp: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/oauth-apps/{provider}',
        access: { kind: 'scope', scope: 'admin:read', admin: true },
        errors: ['oauth.unsupported_provider'],
        tag,
        summary: docs.getApp.summary,
        description: docs.getApp.description,
      }),
    )
    .input(providerParam)
    .output(oauthAppSchema)
    .query(({ input }) => getOAuthApp(input.provider)),

  putApp: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/admin/oauth-apps/{provider}',
        access: { kind: 'scope', scope: 'admin:write', admin: true },
        errors: ['oauth.unsupported_provider', 'oauth.encryption_disabled', 'oauth.invalid_client_id'],
        tag,
        summary: docs.putApp.summary,
        description: docs.putApp.description,
      }),
    )
    .input(putOAuthAppInput)
    .output(oauthAppSchema)
    .mutation(({ ctx, input }) => putOAuthApp(actorOf(ctx), input, ctx.ip)),

  start: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/oauth/{provider}/start',
        access: { kind: 'session' },
        errors: ['oauth.unsupported_provider', 'oauth.app_not_configured', 'oauth.capability_not_supported', 'oauth.encryption_disabled'],
        tag,
        summary: docs.start.summary,
        description: docs.start.description,
      }),
    )
    .input(startFlowInput)
    .output(startFlowOutput)
    .mutation(({ ctx, input }) => startOAuthFlow(actorOf(ctx), input)),
});
