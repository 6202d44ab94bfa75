import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { llmAdminRouter } from './admin-router';
import { assistantModels } from './connection-test';
import { assistantModelsOutput, connectionModelsOutput, llmDefaultsOutput, memberConnectionListOutput } from './schemas';
import { connectionModels, listMemberConnections, llmDefaults } from './service';
import { llmSpendRouter } from './spend-router';

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
        summary: { en: 'AI models per purpose', fr: 'Modèles IA par usage' },
        description: {
          en: 'For each purpose (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) the provider and model that serve it: the administrator’s routing choice, else the default connection, else the oldest connection; null when no provider can serve.',
          fr: 'Pour chaque usage (`classify`, `compose`, `extract`, `general`, `analyzer`, `assistant`) le fournisseur et le modèle qui le servent : le choix de routage de l’administrateur, sinon la connexion par défaut, sinon la plus ancienne connexion ; null quand aucun fournisseur ne peut servir.',
        },
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
        summary: { en: 'List AI connections', fr: 'Lister les connexions IA' },
        description: {
          en: 'The instance’s AI connections in configuration order (oldest first), in the member form: `id`, `provider`, `label`, `isDefault`.',
          fr: 'Les connexions IA de l’instance dans l’ordre de configuration (les plus anciennes d’abord), sous la forme membre : `id`, `provider`, `label`, `isDefault`.',
        },
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
        summary: { en: 'Models of an AI connection', fr: 'Modèles d’une connexion IA' },
        description: {
          en: '`restricted: true`: the administrator enabled only these models, no other may be used. `restricted: false`: a list of the provider’s usual models to help typing (empty for a generic compatible server); any model may be named. Unknown id 404 `llm.connection_not_found`.',
          fr: '`restricted: true` : l’administrateur n’a autorisé que ces modèles, aucun autre ne peut servir. `restricted: false` : une liste des modèles courants du fournisseur pour aider la saisie (vide pour un serveur compatible générique) ; tout modèle peut être nommé. Identifiant inconnu 404 `llm.connection_not_found`.',
        },
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
        summary: { en: 'Models for the assistant', fr: 'Modèles pour l’assistant' },
        description: {
          en: '`default`: the provider and model serving the assistant when none is picked (`source`: `purpose` routing, `instanceDefault` or `configurationOrder`), null when no provider can serve. `options`: every model that may be picked, per connection in configuration order (its enabled models, else its provider’s usual ones), with `connectionId`, `connectionLabel` and `supportsTools`.',
          fr: '`default` : le fournisseur et le modèle qui servent l’assistant quand aucun n’est choisi (`source` : routage par usage `purpose`, `instanceDefault` ou `configurationOrder`), null quand aucun fournisseur ne peut servir. `options` : chaque modèle qui peut être choisi, par connexion dans l’ordre de configuration (ses modèles autorisés, sinon les modèles courants de son fournisseur), avec `connectionId`, `connectionLabel` et `supportsTools`.',
        },
      }),
    )
    .output(assistantModelsOutput)
    .query(() => assistantModels()),

  admin: llmAdminRouter,
  spend: llmSpendRouter,
});
