import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { listNodeTypesInput, nodeTypeListOutput } from './schemas';
import { listNodeTypes } from './service';

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
        summary: { en: 'List the node types', fr: 'Lister les types de nœuds' },
        description: {
          en: 'Every node type a workflow graph may use (newest version of each): label and description in `lang` (en or fr, default en), category, inputs, outputs (null when they depend on the parameters), effect kind, effective retry defaults, trigger kind, mailbox parameters, the JSON Schema of the parameters and whether the type is `forbidden` to the caller (`FORBIDDEN_NODE_TYPES`, members only). A parameter value may also be an expression `{{ … }}` (JSONata).',
          fr: 'Chaque type de nœud qu’un graphe de workflow peut utiliser (la version la plus récente de chacun) : libellé et description dans `lang` (en ou fr, en par défaut), catégorie, entrées, sorties (null quand elles dépendent des paramètres), nature des effets, reprises par défaut effectives, type de déclencheur, paramètres de boîte mail, schéma JSON des paramètres et si le type est interdit à l’appelant (`forbidden` ; `FORBIDDEN_NODE_TYPES`, membres seulement). Une valeur de paramètre peut aussi être une expression `{{ … }}` (JSONata).',
        },
      }),
    )
    .input(listNodeTypesInput)
    .output(nodeTypeListOutput)
    .query(({ ctx, input }) => listNodeTypes(input, actorOf(ctx).member.role)),
});
