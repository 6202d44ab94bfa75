import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { llmAdminRouter } from './admin-router';
import { assistantModels } from './connection-test';
import { assistantModelsOutput, connectionModelsOutput, llmDefaultsOutput, memberConnectionListOutput } from './schemas';
import { connectionModels, listMemberConnections, llmDefaults } from './service';
import { llmSpendRouter } from './spend-router';
import { docs } from './docs';

const tag = 'AI models';
const read = { kind: 'scope', scope: 'connections:read' } as const;

export const llmRouter = router({
  defaults: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/llm-defaults',
        access: read,
        tag,
        summary: docs.defaults.summary,
        description: docs.defaults.description,
      }),
    )
    .output(llmDefaultsOutput)
    .query(() => llmDefaults()),

  connections: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/llm-connections',
        access: read,
        tag,
        summary: docs.connections.summary,
        description: docs.connections.description,
      }),
    )
    .output(memberConnectionListOutput)
    .query(() => listMemberConnections()),

  models: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/llm-connections/{id}/models',
        access: read,
        errors: ['llm.connection_not_found'],
        tag,
        summary: docs.models.summary,
        description: docs.models.description,
      }),
    )
    .input(uuidParam)
    .output(connectionModelsOutput)
    .query(({ input }) => connectionModels(input.id)),

  assistantModels: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/assistant/models',
        access: { kind: 'scope', scope: 'assistant:read' },
        tag,
        summary: docs.assistantModels.summary,
        description: docs.assistantModels.description,
      }),
    )
    .output(assistantModelsOutput)
    .query(() => assistantModels()),

  admin: llmAdminRouter,
  spend: llmSpendRouter,
});
