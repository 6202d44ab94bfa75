import { uuidParam } from '../../core/http/schemas';
import { inputErrorsAs } from '../../trpc/middleware/input-errors-as';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  connectionListOutput,
  connectionOutput,
  createConnectionInput,
  createConnectionOutput,
  deleteConnectionOutput,
  listConnectionsInput,
  memberKeysSettingsOutput,
  updateConnectionInput,
} from './schemas';
import { connectionTestOutput } from '../llm';
import { memberKeysSettings, testMemberKey } from './llm-provider';
import { createConnection, deleteConnection, listConnections, updateConnection } from './service';

const tag = 'Connections';
const read = { kind: 'scope', scope: 'connections:read' } as const;
const write = { kind: 'scope', scope: 'connections:write' } as const;
/** The spec's connection routes answer their own code for input that does not match. */
const connectionProcedure = procedure.use(inputErrorsAs('credential.bad_request'));

export const connectionsRouter = router({
  list: connectionProcedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/credentials',
        access: read,
        errors: ['credential.bad_request'],
        tag,
        summary: { en: 'List connections', fr: 'Lister les connexions' },
        description: {
          en: 'The member’s connections, then the organisation’s, newest first in each group; optional `type`. OAuth grants (`mail_provider_a_oauth`, `mail_provider_b_oauth`) are listed only when their type is given, with their `capabilities`; they and `imap` connections are read-only here. Secrets are never returned; `hint` shows at most their last four characters. An `http_generic` connection shows `allowedHosts`, the hosts its secret may be sent to (absent on one made before hosts existed).',
          fr: 'Les connexions du membre, puis celles de l’organisation, les plus récentes d’abord dans chaque groupe ; `type` facultatif. Les autorisations OAuth (`mail_provider_a_oauth`, `mail_provider_b_oauth`) ne sont listées que si leur type est demandé, avec leurs `capabilities` ; elles et les connexions `imap` sont ici en lecture seule. Les secrets ne sont jamais renvoyés ; `hint` en montre au plus les quatre derniers caractères. Une connexion `http_generic` montre `allowedHosts`, les hôtes auxquels son secret peut être envoyé (absent sur une connexion créée avant les hôtes).',
        },
      }),
    )
    .input(listConnectionsInput)
    .output(connectionListOutput)
    .query(({ ctx, input }) => listConnections(actorOf(ctx), input)),

  create: connectionProcedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/credentials',
        access: write,
        idempotent: true,
        status: 201,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.encryption_disabled', 'credential.llm_member_keys_disabled', 'llm.invalid_base_url'],
        tag,
        summary: { en: 'Create a connection', fr: 'Créer une connexion' },
        description: {
          en: '`type`, `name` (1-80), `scope` (`member` by default; `org` for administrators only: 403 `credential.admin_required`), `data`: for `http_generic` one of {kind `apiKey`, headerName 1-128, value 1-4096}, {kind `bearer`, token 1-4096}, {kind `basic`, username 1-256, password 1-4096}, {kind `query`, paramName 1-128, value 1-4096}; for another type a map of at most 50 keys (1-128 characters, not `__proto__`) to strings of at most 4,096 characters. `imap` and OAuth grant types are created by their own flows. The secret is encrypted; without an instance key 409 `credential.encryption_disabled`. Every input error is 400 `credential.bad_request`. For `llm_provider` (a member’s own AI key, when the instance allows it: else 403 `credential.llm_member_keys_disabled`), `data` is {provider (`ai_vendor_a` … `ai_vendor_e`, `ai_local`, `ai_generic_compatible`), apiKey 1-512 (optional for `ai_local` and `ai_generic_compatible`), baseUrl ≤ 2048 (required for `ai_generic_compatible`)}, `scope` `member` only; the base URL must not lead to a private, loopback, link-local or metadata address (400 `llm.invalid_base_url` with `details.reason`). `hint` shows the key’s last four characters. `allowedHosts` (`http_generic` only, 1-20 entries): the hosts the secret may be sent to, as `api.example.com` (http or https on the standard port), `api.example.com:8443` (that port) or an origin `https://api.example.com` (that scheme only); normalised (lower case, internationalised names as `xn--…`, default port dropped); wildcards, paths, queries and user names are refused (400 `credential.bad_request` naming the entry). A request, or a redirect hop, to any other host fails before anything is sent. Required for `org` connections (400 `credential.bad_request`, `details.reason` `hosts_required`); a member’s own connection without it is bound to the first host a live run sends it to; for another type 400 (`details.reason` `hosts_not_applicable`).',
          fr: '`type`, `name` (1-80), `scope` (`member` par défaut ; `org` réservé aux administrateurs : 403 `credential.admin_required`), `data` : pour `http_generic` l’un de {kind `apiKey`, headerName 1-128, value 1-4096}, {kind `bearer`, token 1-4096}, {kind `basic`, username 1-256, password 1-4096}, {kind `query`, paramName 1-128, value 1-4096} ; pour un autre type une table d’au plus 50 clés (1-128 caractères, pas `__proto__`) vers des textes d’au plus 4 096 caractères. Les types `imap` et d’autorisation OAuth sont créés par leurs propres parcours. Le secret est chiffré ; sans clé d’instance 409 `credential.encryption_disabled`. Toute erreur de saisie donne 400 `credential.bad_request`. Pour `llm_provider` (la clé d’IA personnelle d’un membre, si l’instance le permet : sinon 403 `credential.llm_member_keys_disabled`), `data` vaut {provider (`ai_vendor_a` … `ai_vendor_e`, `ai_local`, `ai_generic_compatible`), apiKey 1-512 (facultative pour `ai_local` et `ai_generic_compatible`), baseUrl ≤ 2048 (obligatoire pour `ai_generic_compatible`)}, `scope` `member` seulement ; l’URL de base ne doit pas mener à une adresse privée, locale, de lien local ou de métadonnées (400 `llm.invalid_base_url` avec `details.reason`). `hint` montre les quatre derniers caractères de la clé. `allowedHosts` (`http_generic` seulement, 1 à 20 entrées) : les hôtes auxquels le secret peut être envoyé, sous la forme `api.example.com` (http ou https sur le port standard), `api.example.com:8443` (ce port) ou une origine `https://api.example.com` (ce schéma seulement) ; normalisés (minuscules, noms internationalisés en `xn--…`, port par défaut retiré) ; jokers, chemins, requêtes et noms d’utilisateur sont refusés (400 `credential.bad_request` nommant l’entrée). Une requête, ou une étape de redirection, vers tout autre hôte échoue avant que quoi que ce soit ne parte. Obligatoire pour les connexions `org` (400 `credential.bad_request`, `details.reason` `hosts_required`) ; la connexion personnelle d’un membre qui n’en a pas est liée au premier hôte auquel une exécution réelle l’envoie ; pour un autre type 400 (`details.reason` `hosts_not_applicable`).',
        },
      }),
    )
    .input(createConnectionInput)
    .output(createConnectionOutput)
    .mutation(({ ctx, input }) => createConnection(actorOf(ctx), input, ctx.ip)),

  update: connectionProcedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/credentials/{id}',
        access: write,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.encryption_disabled', 'credential.llm_member_keys_disabled', 'llm.invalid_base_url'],
        tag,
        summary: { en: 'Update a connection', fr: 'Modifier une connexion' },
        description: {
          en: '`name` (1-80) and optional `data`: without it the secret is kept, with it the secret is replaced entirely (same shapes as on creation; an `http_generic` connection may change kind). A connection outside the member’s scope is 404 `request.not_found`; organisation connections are changed by administrators only (403 `credential.admin_required`); `imap` connections and OAuth grants are read-only (400 `credential.bad_request`, `details.reason` `read_only`). An `llm_provider` secret follows the creation rules (403 `credential.llm_member_keys_disabled`, 400 `llm.invalid_base_url`). Optional `allowedHosts` (`http_generic` only, same forms as on creation) replaces the hosts the secret may be sent to; without it they are kept. An organisation connection made before hosts existed is sent nowhere until an administrator sets them here.',
          fr: '`name` (1-80) et `data` facultatif : sans lui le secret est conservé, avec lui il est entièrement remplacé (mêmes formes qu’à la création ; une connexion `http_generic` peut changer de genre). Une connexion hors de la portée du membre donne 404 `request.not_found` ; les connexions de l’organisation ne sont modifiées que par les administrateurs (403 `credential.admin_required`) ; les connexions `imap` et les autorisations OAuth sont en lecture seule (400 `credential.bad_request`, `details.reason` `read_only`). Un secret `llm_provider` suit les règles de la création (403 `credential.llm_member_keys_disabled`, 400 `llm.invalid_base_url`). `allowedHosts` facultatif (`http_generic` seulement, mêmes formes qu’à la création) remplace les hôtes auxquels le secret peut être envoyé ; sans lui ils sont conservés. Une connexion de l’organisation créée avant les hôtes n’est envoyée nulle part tant qu’un administrateur ne les a pas définis ici.',
        },
      }),
    )
    .input(updateConnectionInput)
    .output(connectionOutput)
    .mutation(({ ctx, input }) => updateConnection(actorOf(ctx), input, ctx.ip)),

  delete: connectionProcedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/credentials/{id}',
        access: write,
        errors: ['credential.bad_request', 'credential.admin_required', 'credential.in_use'],
        tag,
        summary: { en: 'Delete a connection', fr: 'Supprimer une connexion' },
        description: {
          en: 'Deletes the connection and its secret. A connection outside the member’s scope is 404 `request.not_found`; organisation connections are deleted by administrators only (403 `credential.admin_required`); one that a connected mailbox uses is 409 `credential.in_use` naming the mailbox (`details.mailboxId`, `details.address`): disconnect the mailbox first.',
          fr: 'Supprime la connexion et son secret. Une connexion hors de la portée du membre donne 404 `request.not_found` ; les connexions de l’organisation ne sont supprimées que par les administrateurs (403 `credential.admin_required`) ; une connexion utilisée par une boîte connectée donne 409 `credential.in_use` en nommant la boîte (`details.mailboxId`, `details.address`) : déconnectez d’abord la boîte.',
        },
      }),
    )
    .input(uuidParam)
    .output(deleteConnectionOutput)
    .mutation(({ ctx, input }) => deleteConnection(actorOf(ctx), input.id, ctx.ip)),

  memberKeys: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/llm-member-keys',
        access: read,
        tag,
        summary: { en: 'Members’ own AI keys: allowed?', fr: 'Clés d’IA personnelles : permises ?' },
        description: {
          en: '`{allowed, providers}`: whether this instance lets members store their own AI keys as `llm_provider` connections (`allowed` false: creating or changing one is 403 `credential.llm_member_keys_disabled`), and for each provider whether its secret needs `apiKey` and `baseUrl` (`required` or `optional`).',
          fr: '`{allowed, providers}` : si cette instance permet aux membres d’enregistrer leurs propres clés d’IA comme connexions `llm_provider` (`allowed` à false : en créer ou en modifier une donne 403 `credential.llm_member_keys_disabled`), et pour chaque fournisseur si son secret exige `apiKey` et `baseUrl` (`required` ou `optional`).',
        },
      }),
    )
    .output(memberKeysSettingsOutput)
    .query(() => memberKeysSettings()),

  test: connectionProcedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/credentials/{id}/test',
        access: write,
        throttle: { bucket: 'connection_checks' },
        errors: ['credential.bad_request', 'credential.llm_member_keys_disabled'],
        tag,
        summary: { en: 'Test one of my AI keys', fr: 'Tester une de mes clés d’IA' },
        description: {
          en: 'For the member’s own `llm_provider` connection: lists the models at its provider with its key (15 s at most, through the network guard, no `ai_local` exception): 200 `{ok: true, modelCount, latencyMs}`, or 200 `{ok: false, code, message}` when the provider cannot be used (`code` such as `auth`, `network`, `host_not_found`, `timeout`, `blocked_address`; the message is ours, never the provider’s text or the key). Another member’s or an unknown connection 404 `request.not_found`; another type 400 `credential.bad_request` (`details.reason` `not_testable`); members’ keys not allowed 403 `credential.llm_member_keys_disabled`. Audited (`credential.tested`) without the key.',
          fr: 'Pour une connexion `llm_provider` du membre : liste les modèles chez son fournisseur avec sa clé (15 s au plus, via la garde réseau, sans l’exception `ai_local`) : 200 `{ok: true, modelCount, latencyMs}`, ou 200 `{ok: false, code, message}` quand le fournisseur est inutilisable (`code` tel que `auth`, `network`, `host_not_found`, `timeout`, `blocked_address` ; le message est le nôtre, jamais le texte du fournisseur ni la clé). Connexion d’un autre membre ou inconnue 404 `request.not_found` ; autre type 400 `credential.bad_request` (`details.reason` `not_testable`) ; clés personnelles non permises 403 `credential.llm_member_keys_disabled`. Journalisé (`credential.tested`) sans la clé.',
        },
      }),
    )
    .input(uuidParam)
    .output(connectionTestOutput)
    .mutation(({ ctx, input }) => testMemberKey(actorOf(ctx), input.id, ctx.ip)),
});
