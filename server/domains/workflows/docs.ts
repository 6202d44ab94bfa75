/**
 * The en/fr prose (summary and description) of workflowsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { withGraphScopeRule } from './graph-scopes';

export const docs = {
  create: {
    summary: { en: 'Create a workflow', fr: 'Créer un workflow' },
    description: withGraphScopeRule({
      en: 'A draft owned by the caller: `name` (1-200), optional `description` (≤ 2,000) and `graph` (the whole graph, checked as by PUT …/graph: an incomplete draft is created and its `issues` answered; a graph that cannot be kept is 400 `workflow.invalid_graph` with `details.issues`). Publishing is a separate step.',
      fr: 'Un brouillon appartenant à l’appelant : `name` (1-200), `description` (≤ 2 000) et `graph` facultatifs (le graphe entier, vérifié comme par PUT …/graph : un brouillon incomplet est créé et ses problèmes renvoyés dans `issues` ; un graphe qui ne peut pas être gardé donne 400 `workflow.invalid_graph` avec `details.issues`). La publication est une étape distincte.',
    }),
  },
  list: {
    summary: { en: 'List my workflows', fr: 'Lister mes workflows' },
    description: {
      en: 'Every workflow of the caller, newest first, whole (no pagination): status (`draft`, `published`, `paused`, `archived`), published version, trigger type, draft revision and settings.',
      fr: 'Tous les workflows de l’appelant, les plus récents d’abord, en entier (sans pagination) : statut (`draft`, `published`, `paused`, `archived`), version publiée, type de déclencheur, révision du brouillon et réglages.',
    },
  },
  get: {
    summary: { en: 'Read a workflow', fr: 'Lire un workflow' },
    description: {
      en: 'The workflow with its draft `graph`, `executionLimits` (effective values and instance ceilings of `maxConcurrency`, `executionTimeoutMs` and the wait duration), pinned `testMessageIds`, `webhook` {configured, requireSignature} (never the token) and `draftIssues` (what publishing or a test run would refuse in the draft, as PUT …/graph answers them; empty when complete).',
      fr: 'Le workflow avec son `graph` brouillon, `executionLimits` (valeurs effectives et plafonds de l’instance pour `maxConcurrency`, `executionTimeoutMs` et la durée d’attente), les `testMessageIds` épinglés, `webhook` {configured, requireSignature} (jamais le jeton) et `draftIssues` (ce que la publication ou un essai refuserait dans le brouillon, tels que PUT …/graph les renvoie ; vide s’il est complet).',
    },
  },
  patch: {
    summary: { en: 'Change a workflow', fr: 'Modifier un workflow' },
    description: {
      en: 'Partial: `name`, `description`, `settings` {`errorWorkflowId` (null clears; another workflow of yours starting with the workflow-failure trigger, else 409 `workflow.invalid_error_workflow`), `maxConcurrency` (1 to the instance ceiling), `executionTimeoutMs` (one minute to 24 hours); null restores a default; `sendWithoutReview` (boolean, default false: whether the workflow’s mail.send steps send without waiting in the review queue); `oneRunAtATime` (null: runs are independent) {`by`: `thread` (the triggering mail’s conversation), `sender` (its address) or `expression`; `expression`: required with `expression`, `{{ … }}` over `trigger` made of field paths, `&`, comparisons and `? :` (no function call), else 400 `request.bad_request` with `details.field`; `coalesceSeconds` 0-3600 (mail triggers; 0, the default, is off): runs sharing a key run one at a time in arrival order, a run waiting (for a reply, an approval) keeping its key; mail of one key arriving within the window of the key’s first queued run joins that run (`trigger.batch`, at most 20 messages and 512 KB; the next mail starts the key’s next run)}. A limit out of bounds is 409 `workflow.execution_limit_invalid` with `details` {field, value, minimum, ceiling}. Archived: 409 `workflow.archived`. Through an API key, `sendWithoutReview: true` also needs `review:write` (403 `api_key.scope_missing`, `details.reasons`: `send_without_review`).',
      fr: 'Partiel : `name`, `description`, `settings` {`errorWorkflowId` (null l’efface ; un autre de vos workflows commençant par le déclencheur d’échec de workflow, sinon 409 `workflow.invalid_error_workflow`), `maxConcurrency` (de 1 au plafond de l’instance), `executionTimeoutMs` (d’une minute à 24 heures) ; null rétablit la valeur par défaut ; `sendWithoutReview` (booléen, false par défaut : si les étapes mail.send du workflow envoient sans attendre dans la file de relecture) ; `oneRunAtATime` (null : exécutions indépendantes) {`by` : `thread` (la conversation du mail déclencheur), `sender` (son adresse) ou `expression` ; `expression` : requise avec `expression`, `{{ … }}` sur `trigger` faite de chemins de champs, `&`, comparaisons et `? :` (sans appel de fonction), sinon 400 `request.bad_request` avec `details.field` ; `coalesceSeconds` de 0 à 3600 (déclencheurs mail ; 0, la valeur par défaut, désactive) : les exécutions d’une même clé s’exécutent une à la fois dans l’ordre d’arrivée, une exécution en attente (d’une réponse, d’une approbation) gardant sa clé ; les mails d’une clé arrivés pendant la fenêtre de la première exécution en file de cette clé la rejoignent (`trigger.batch`, 20 messages et 512 Ko au plus ; le mail suivant démarre l’exécution suivante de la clé)}. Une limite hors bornes donne 409 `workflow.execution_limit_invalid` avec `details` {field, value, minimum, ceiling}. Archivé : 409 `workflow.archived`. Avec une clé d’API, `sendWithoutReview: true` exige aussi `review:write` (403 `api_key.scope_missing`, `details.reasons` : `send_without_review`).',
    },
  },
  putGraph: {
    summary: { en: 'Replace the draft graph', fr: 'Remplacer le graphe brouillon' },
    description: withGraphScopeRule({
      en: 'The whole graph (nodes, connections, optional notes and pins). Checked: node types and versions, duplicate node and note ids, connections between existing nodes, output ports and inputs, at most one trigger, cycles only through nodes that allow them, every parameter against its node type (expressions `{{ … }}` admitted), and for a member no node type the instance forbids (`FORBIDDEN_NODE_TYPES`; administrators are exempt). A draft may be incomplete: parameters missing or out of bounds, a port that is gone, two triggers or a cycle do not block saving; the graph is stored and its `issues` [{path, message, rule}] answered (messages are sentences naming the field), and publishing, test runs and evaluations refuse it until they are fixed. What cannot be kept at all (an unknown or forbidden node type or version, duplicate node or note ids, a connection or pin naming no node) is 400 `workflow.invalid_graph` with `details.issues` [{path, message}]. Optional `draftRevision`: when it is not the current one, 409 `workflow.revision_conflict` with `details.draftRevision`. Answers the stored graph, the new revision and the issues.',
      fr: 'Le graphe entier (nœuds, connexions, notes et épingles facultatives). Vérifiés : types de nœuds et versions, identifiants de nœuds et de notes en double, connexions entre nœuds existants, sorties et entrées, un déclencheur au plus, cycles seulement par des nœuds qui les permettent, chaque paramètre selon son type de nœud (expressions `{{ … }}` admises), et pour un membre aucun type de nœud interdit par l’instance (`FORBIDDEN_NODE_TYPES` ; les administrateurs en sont exemptés). Un brouillon peut être incomplet : des paramètres manquants ou hors limites, une sortie disparue, deux déclencheurs ou un cycle n’empêchent pas l’enregistrement ; le graphe est enregistré et ses problèmes renvoyés dans `issues` [{path, message, rule}] (des phrases qui nomment le champ), et la publication, les essais et les évaluations le refusent tant qu’ils ne sont pas corrigés. Ce qui ne peut pas être gardé du tout (un type de nœud ou une version inconnus ou interdits, des identifiants de nœud ou de note en double, une connexion ou une épingle qui ne désigne aucun nœud) donne 400 `workflow.invalid_graph` avec `details.issues` [{path, message}]. `draftRevision` facultatif : s’il n’est pas la révision courante, 409 `workflow.revision_conflict` avec `details.draftRevision`. Renvoie le graphe enregistré, la nouvelle révision et les problèmes.',
    }),
  },
  publish: {
    summary: { en: 'Publish the draft', fr: 'Publier le brouillon' },
    description: withGraphScopeRule({
      en: 'Freezes the draft as the next numbered, immutable version (optional `note` ≤ 500) and makes it the one triggers start; executions record its id. The draft must be valid (400 `workflow.invalid_graph`) and have exactly one trigger (409 `workflow.no_trigger`). A schedule trigger is scheduled from now. Runs in progress keep their version.',
      fr: 'Fige le brouillon en version numérotée suivante, immuable (`note` facultative ≤ 500), et en fait celle que les déclencheurs démarrent ; les exécutions enregistrent son identifiant. Le brouillon doit être valide (400 `workflow.invalid_graph`) et avoir exactement un déclencheur (409 `workflow.no_trigger`). Un déclencheur planifié est programmé à partir de maintenant. Les exécutions en cours gardent leur version.',
    }),
  },
  unpublish: {
    summary: { en: 'Unpublish a workflow', fr: 'Dépublier un workflow' },
    description: {
      en: 'Triggers stop starting it (its schedule is removed); versions stay. Runs in progress are not cancelled. Idempotent.',
      fr: 'Les déclencheurs cessent de le démarrer (sa planification est retirée) ; les versions restent. Les exécutions en cours ne sont pas annulées. Idempotent.',
    },
  },
  pause: {
    summary: { en: 'Pause a workflow', fr: 'Mettre un workflow en pause' },
    description: {
      en: 'Stays published but starts nothing new. Needs a published version (409 `workflow.not_published`). Runs in progress are not cancelled. Idempotent.',
      fr: 'Reste publié mais ne démarre plus rien. Exige une version publiée (409 `workflow.not_published`). Les exécutions en cours ne sont pas annulées. Idempotent.',
    },
  },
  resume: {
    summary: { en: 'Resume a paused workflow', fr: 'Reprendre un workflow en pause' },
    description: { en: 'Triggers start it again. Idempotent.', fr: 'Les déclencheurs le démarrent de nouveau. Idempotent.' },
  },
  archive: {
    summary: { en: 'Archive a workflow', fr: 'Archiver un workflow' },
    description: {
      en: 'Unpublishes it and makes it read-only (graph, settings and publishing answer 409 `workflow.archived`); it stays readable with its versions and executions. Runs in progress are not cancelled. Idempotent.',
      fr: 'Le dépublie et le rend en lecture seule (graphe, réglages et publication répondent 409 `workflow.archived`) ; il reste consultable avec ses versions et exécutions. Les exécutions en cours ne sont pas annulées. Idempotent.',
    },
  },
  versions: {
    summary: { en: 'List a workflow’s versions', fr: 'Lister les versions d’un workflow' },
    description: {
      en: 'Every published version, newest first, whole (no pagination); `published` marks the one triggers start.',
      fr: 'Toutes les versions publiées, les plus récentes d’abord, en entier (sans pagination) ; `published` désigne celle que les déclencheurs démarrent.',
    },
  },
  version: {
    summary: { en: 'Read a version', fr: 'Lire une version' },
    description: { en: 'One version with its graph.', fr: 'Une version avec son graphe.' },
  },
  restoreVersion: {
    summary: { en: 'Restore a version as the draft', fr: 'Restaurer une version comme brouillon' },
    description: withGraphScopeRule({
      en: 'Roll back: the version’s graph becomes the draft (a new draft revision); the published version and the version itself are untouched, publishing stays a separate step. The graph is checked as by PUT …/graph, so a version using a node type that no longer exists or that the instance now forbids to members (`FORBIDDEN_NODE_TYPES`) is 400 `workflow.invalid_graph` with `details.issues`. Optional `draftRevision`: when it is not the current one, 409 `workflow.revision_conflict` with `details.draftRevision`. An unknown version is 404 `workflow.version_not_found`; archived: 409 `workflow.archived`. Answers the draft graph, its revision and `restoredFrom` {id, number}.',
      fr: 'Retour en arrière : le graphe de la version devient le brouillon (nouvelle révision du brouillon) ; la version publiée et la version elle-même restent inchangées, la publication reste une étape distincte. Le graphe est vérifié comme par PUT …/graph : une version utilisant un type de nœud qui n’existe plus ou que l’instance interdit désormais aux membres (`FORBIDDEN_NODE_TYPES`) donne 400 `workflow.invalid_graph` avec `details.issues`. `draftRevision` facultatif : s’il n’est pas la révision courante, 409 `workflow.revision_conflict` avec `details.draftRevision`. Une version inconnue donne 404 `workflow.version_not_found` ; archivé : 409 `workflow.archived`. Renvoie le graphe brouillon, sa révision et `restoredFrom` {id, number}.',
    }),
  },
  testMessages: {
    summary: { en: 'Pin test messages', fr: 'Épingler des messages de test' },
    description: {
      en: 'Replaces the pinned test messages: `messageIds` (at most 20), each a mirrored message of one of your mailboxes, else 400 `workflow.test_message_not_found` with `details.messageIds`.',
      fr: 'Remplace les messages de test épinglés : `messageIds` (20 au plus), chacun un message copié de l’une de vos boîtes, sinon 400 `workflow.test_message_not_found` avec `details.messageIds`.',
    },
  },
  testRun: {
    summary: { en: 'Start a test run of the draft', fr: 'Lancer un essai du brouillon' },
    description: withGraphScopeRule({
      en: 'A simulated run (`simulated: true`, external effects simulated, no slot) of the draft as it is now, with an optional `messageId` (one of your messages), `triggerData` (an object ≤ 256 KB, else 400 `workflow.trigger_data_too_large`) and `upToNodeId` (stop after that node). The draft must be valid (400 `workflow.invalid_graph`). Your runs in progress that hold no slot (test runs, sub-workflow runs, loop iterations, evaluation runs) are capped by the instance (500 by default): at the cap a test run is refused with 409 `workflow.run_limit_reached` (`details.limit`) until some end. A failed test run records no incident and no notification. 202 `{executionId}`.',
      fr: 'Une exécution simulée (`simulated: true`, effets externes simulés, sans créneau) du brouillon tel qu’il est, avec `messageId` (l’un de vos messages), `triggerData` (un objet ≤ 256 Ko, sinon 400 `workflow.trigger_data_too_large`) et `upToNodeId` (s’arrêter après ce nœud) facultatifs. Le brouillon doit être valide (400 `workflow.invalid_graph`). Vos exécutions en cours qui n’occupent pas de créneau (essais, sous-workflows, itérations de boucle, évaluations) sont plafonnées par l’instance (500 par défaut) : au plafond, un essai est refusé avec 409 `workflow.run_limit_reached` (`details.limit`) jusqu’à ce que certaines se terminent. Un essai en échec n’enregistre ni incident ni notification. 202 `{executionId}`.',
    }, { en: 'A `messageId` also needs `messages:read` (`details.reasons`: `test_message`).', fr: 'Un `messageId` exige aussi `messages:read` (`details.reasons` : `test_message`).' }),
  },
  webhook: {
    summary: { en: 'The webhook URL and token', fr: 'L’URL et le jeton du webhook' },
    description: {
      en: 'Answers the URL of `POST /hooks/wf/{token}` and its token: the same on every call (copying the URL again never breaks a live sender) unless `rotate: true`. `requireSignature: true` makes a signing secret (HMAC-SHA256 of the raw body), returned as `secret` only when this call creates or rotates it; `false` removes it. Needs an instance encryption key (409 `credentials.encryption_disabled`).',
      fr: 'Renvoie l’URL de `POST /hooks/wf/{token}` et son jeton : le même à chaque appel (copier l’URL de nouveau ne casse jamais un expéditeur actif) sauf avec `rotate: true`. `requireSignature: true` crée un secret de signature (HMAC-SHA256 du corps brut), renvoyé dans `secret` seulement quand cet appel le crée ou le renouvelle ; `false` le retire. Exige une clé de chiffrement de l’instance (409 `credentials.encryption_disabled`).',
    },
  },
  delete: {
    summary: { en: 'Delete a workflow', fr: 'Supprimer un workflow' },
    description: {
      en: 'Deletes the workflow and its versions for good and answers it as it was. Its executions and incidents stay (their `workflowName` then reads empty); runs in progress are not cancelled.',
      fr: 'Supprime définitivement le workflow et ses versions et le renvoie tel qu’il était. Ses exécutions et incidents restent (leur `workflowName` est alors vide) ; les exécutions en cours ne sont pas annulées.',
    },
  },
};
