/**
 * The en/fr prose (summary and description) of executionsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { withGraphScopeRule } from '../workflows';

const refusalsEn =
  'Refused with 409 `execution.not_replayable` and `details.reason`: `simulated` (a test run is never replayed), `in_progress` (queued, running or waiting), `succeeded`, `workflow_deleted`, `workflow_archived`, `version_unavailable` (no published version, or the original version is gone), `mailbox_disconnected` (the original run’s mailbox is disconnected or gone), `sender_excluded` (the triggering email’s sender is now excluded by the organisation or the member).';

const refusalsFr =
  'Refusé en 409 `execution.not_replayable` avec `details.reason` : `simulated` (une exécution de test n’est jamais rejouée), `in_progress` (en file, en cours ou en attente), `succeeded`, `workflow_deleted`, `workflow_archived`, `version_unavailable` (aucune version publiée, ou la version d’origine a disparu), `mailbox_disconnected` (la boîte de l’exécution d’origine est déconnectée ou supprimée), `sender_excluded` (l’expéditeur de l’email déclencheur est désormais exclu par l’organisation ou le membre).';

export const docs = {
  list: {
    summary: { en: 'List my executions', fr: 'Lister mes exécutions' },
    description: {
      en: 'The member’s executions, newest first. Filters: `workflowId`, `mailboxId` (intersected with the member’s mailboxes), `status`, `simulated` (`true` test runs, `false` live runs), `q` (subject and sender of the triggering email), `effects` (`with`: finished runs that acted outside themselves; `without`: finished runs that did nothing, e.g. a condition led nowhere; runs in progress match neither), `loopIterations` (`false`: without the runs a Loop step starts per item, as the dashboard counts; `true`: those only), `from` and `to` (date-times: runs created in `[from, to)`, the window a dashboard figure counted; `from` ≥ `to` is a 400 `request.bad_request`). Each execution carries `acted` (null until it finishes), so a run that succeeded without doing anything is not read as one that worked. Cursor pagination (`limit` 1-200, default 50; above 200 is a 400); keep the same filters between pages; an unreadable cursor gives the first page.',
      fr: 'Les exécutions du membre, des plus récentes aux plus anciennes. Filtres : `workflowId`, `mailboxId` (croisé avec les boîtes du membre), `status`, `simulated` (`true` exécutions de test, `false` exécutions réelles), `q` (objet et expéditeur de l’email déclencheur), `effects` (`with` : exécutions terminées qui ont agi hors d’elles-mêmes ; `without` : exécutions terminées qui n’ont rien fait, par exemple une condition qui ne menait nulle part ; les exécutions en cours ne correspondent à aucun des deux), `loopIterations` (`false` : sans les exécutions qu’une étape Boucle lance pour chaque élément, comme le tableau de bord les compte ; `true` : celles-là seulement), `from` et `to` (dates-heures : exécutions créées dans `[from, to)`, la fenêtre qu’un chiffre du tableau de bord a comptée ; `from` ≥ `to` est un 400 `request.bad_request`). Chaque exécution porte `acted` (null tant qu’elle n’est pas terminée), pour qu’une exécution réussie qui n’a rien fait ne se lise pas comme une exécution qui a fonctionné. Pagination par curseur (`limit` 1-200, 50 par défaut ; au-delà de 200, 400) ; garder les mêmes filtres d’une page à l’autre ; un curseur illisible donne la première page.',
    },
  },
  waiting: {
    summary: { en: 'List my waiting executions', fr: 'Lister mes exécutions en attente' },
    description: {
      en: 'The member’s executions in `waiting`, by deadline: the soonest `waitUntil` first, runs waiting without a deadline (until decided) last. Each item is the list form plus `waitUntil`. Cursor pagination (`limit` 1-200, default 50).',
      fr: 'Les exécutions du membre en `waiting`, par échéance : le `waitUntil` le plus proche d’abord, celles qui attendent sans échéance (jusqu’à une décision) en dernier. Chaque élément est la forme de liste plus `waitUntil`. Pagination par curseur (`limit` 1-200, 50 par défaut).',
    },
  },
  summary: {
    summary: { en: 'Summarise my recent executions', fr: 'Résumer mes exécutions récentes' },
    description: {
      en: 'Live runs (test runs left out) created since `since` (default 24 hours ago; clamped to at most 30 days back and not in the future; the applied value is returned): `total`, `failed`, `running` (not finished: queued, running or waiting), `succeeded`, `lastFailedAt`, and per workflow (`name` empty when the workflow was deleted), most failures first.',
      fr: 'Les exécutions réelles (hors tests) créées depuis `since` (24 heures par défaut ; ramené à 30 jours au plus et jamais dans le futur ; la valeur appliquée est renvoyée) : `total`, `failed`, `running` (non terminées : en file, en cours ou en attente), `succeeded`, `lastFailedAt`, et par workflow (`name` vide si le workflow a été supprimé), les plus en échec d’abord.',
    },
  },
  incidents: {
    list: {
      summary: { en: 'List my incidents', fr: 'Lister mes incidents' },
      description: {
        en: 'One incident per failed live execution, newest failure first, with the faulty node and an anonymised summary. A run called by a sub-workflow step records its own incident, besides its caller’s. Not recorded: test runs and the runs they call (a test run is not a failure of your automation: it fails in the editor, in front of you, with no incident and no notification), and loop iterations and the runs they call (the loop fails once, in the run that holds it). When a replay of the failed run (or of a failed replay of it) succeeds, the incident is resolved: `resolvedAt` and `resolvedByExecutionId` (the replay) are set, and it counts as acknowledged (an earlier acknowledgement keeps its instant). `since` keeps failures at or after an instant; `unacknowledged=true` keeps unacknowledged ones. Cursor pagination (`limit` 1-200, default 50).',
        fr: 'Un incident par exécution réelle en échec, le plus récent d’abord, avec le nœud fautif et un résumé anonymisé. Une exécution lancée par une étape de sous-workflow enregistre son propre incident, en plus de celui de l’exécution appelante. Non enregistrés : les essais et les exécutions qu’ils lancent (un essai n’est pas un échec de votre automatisation : il échoue dans l’éditeur, sous vos yeux, sans incident ni notification), et les itérations de boucle et les exécutions qu’elles lancent (la boucle échoue une seule fois, dans l’exécution qui la contient). Quand un rejeu de l’exécution en échec (ou d’un rejeu en échec de celle-ci) réussit, l’incident est résolu : `resolvedAt` et `resolvedByExecutionId` (le rejeu) sont remplis, et il compte comme acquitté (un acquittement antérieur garde son instant). `since` garde les échecs à partir d’un instant ; `unacknowledged=true` ne garde que les non acquittés. Pagination par curseur (`limit` 1-200, 50 par défaut).',
      },
    },
    acknowledge: {
      summary: { en: 'Acknowledge an incident', fr: 'Acquitter un incident' },
      description: {
        en: 'Marks one of the member’s incidents acknowledged. Idempotent: acknowledging again answers the first instant. Another member’s incident is 404 `incident.not_found`.',
        fr: 'Marque un incident du membre comme acquitté. Idempotent : acquitter à nouveau renvoie le premier instant. L’incident d’un autre membre donne 404 `incident.not_found`.',
      },
    },
  },
  cancelList: {
    summary: { en: 'Cancel a list of executions', fr: 'Annuler une liste d’exécutions' },
    description: {
      en: 'Cancels up to 200 of the member’s runs in progress (queued, running, waiting): no further step starts, waits are closed, the runs they called (sub-workflows, loop iterations) are cancelled, done steps are not undone. `skipped` names the others with `reason` `finished` or `not_found` (an id that is not the member’s is `not_found`).',
      fr: 'Annule jusqu’à 200 exécutions en cours du membre (en file, en cours, en attente) : aucune étape ne démarre plus, les attentes sont closes, les exécutions appelées (sous-workflows, itérations de boucle) sont annulées, les étapes faites ne sont pas défaites. `skipped` nomme les autres avec `reason` `finished` ou `not_found` (un id qui n’est pas au membre est `not_found`).',
    },
  },
  detail: {
    summary: { en: 'Read an execution', fr: 'Lire une exécution' },
    description: {
      en: 'The detail form: the list fields plus `workflowName` (empty when the workflow was deleted), `triggerData`, `steps` (in order, every step field), `attachments` produced by the run, and `undo`: null when the run’s mailbox changes were never undone, else the undo’s `status` (`running`, `interrupted`: it stopped before the end and undoing again finishes it, `done`), `undoneAt`, `by` (the member, and the API key when one was used) and `counts` (`undone`, `skipped`, `failed`, `sent`; so far while not done). Each step carries its `nodeType`; a waiting step carries `waitUntil`, when its wait ends if nothing ends it first (a wait for a reply’s deadline, a Wait’s end, an approval’s expiry). Another member’s execution is 404 `execution.not_found`.',
      fr: 'La forme détaillée : les champs de la liste plus `workflowName` (vide si le workflow a été supprimé), `triggerData`, `steps` (dans l’ordre, tous les champs d’étape), les `attachments` produits par l’exécution, et `undo` : null si les changements de l’exécution dans la boîte n’ont jamais été défaits, sinon le `status` de l’annulation (`running`, `interrupted` : elle s’est arrêtée avant la fin et une nouvelle annulation la termine, `done`), `undoneAt`, `by` (le membre, et la clé d’API quand une clé a servi) et `counts` (`undone`, `skipped`, `failed`, `sent` ; jusque-là tant qu’elle n’est pas terminée). Chaque étape porte son `nodeType` ; une étape en attente porte `waitUntil`, la fin de son attente si rien ne la termine avant (l’échéance d’une attente de réponse, la fin d’une attente, l’expiration d’une approbation). L’exécution d’un autre membre donne 404 `execution.not_found`.',
    },
  },
  cancel: {
    summary: { en: 'Cancel an execution', fr: 'Annuler une exécution' },
    description: {
      en: 'Cancels one run in progress and the runs it called (`cancelledChildren`); waits are closed and done steps are not undone. A finished run is 409 `execution.not_cancellable`; another member’s is 404 `execution.not_found`.',
      fr: 'Annule une exécution en cours et celles qu’elle a appelées (`cancelledChildren`) ; les attentes sont closes et les étapes faites ne sont pas défaites. Une exécution terminée donne 409 `execution.not_cancellable` ; celle d’un autre membre, 404 `execution.not_found`.',
    },
  },
  replay: {
    summary: { en: 'Replay an execution', fr: 'Rejouer une exécution' },
    description: withGraphScopeRule({
      en: `Reruns a failed or cancelled live run for real with the same trigger data, as a new execution linked to it (\`retryOfExecutionId\`): 202 \`{executionId, from, versionId}\`. \`from\`: \`start\` (default; every live effect happens again) or \`failed_step\` (succeeded steps are kept by node, \`copiedFrom\` naming the original step; a new node runs). \`version\`: \`published\` (default) or \`original\`. \`dryRun: true\` checks the same rules and answers 200 \`{dryRun, from, versionId, effects}\`, the effects that would happen again, starting nothing. ${refusalsEn} Another member’s execution is 404 \`execution.not_found\`.`,
      fr: `Relance pour de vrai une exécution réelle en échec ou annulée avec les mêmes données de déclenchement, comme une nouvelle exécution qui lui est liée (\`retryOfExecutionId\`) : 202 \`{executionId, from, versionId}\`. \`from\` : \`start\` (par défaut ; tout effet réel a lieu à nouveau) ou \`failed_step\` (les étapes réussies sont gardées par nœud, \`copiedFrom\` nommant l’étape d’origine ; un nouveau nœud s’exécute). \`version\` : \`published\` (par défaut) ou \`original\`. \`dryRun: true\` vérifie les mêmes règles et répond 200 \`{dryRun, from, versionId, effects}\`, les effets qui auraient lieu à nouveau, sans rien démarrer. ${refusalsFr} L’exécution d’un autre membre donne 404 \`execution.not_found\`.`,
    }, { en: 'Here the graph is the version the replay runs (`dryRun` included).', fr: 'Ici le graphe est la version que le rejeu exécute (`dryRun` compris).' }),
  },
  cancelWorkflow: {
    summary: { en: 'Cancel a workflow’s runs in progress', fr: 'Annuler les exécutions en cours d’un workflow' },
    description: {
      en: 'Cancels up to `limit` (1-200, default 50) runs in progress of one of the member’s workflows, oldest first, with the runs they called. `hasMore: true` says runs in progress remain: call again. Another member’s workflow is 404 `workflow.not_found`.',
      fr: 'Annule jusqu’à `limit` (1-200, 50 par défaut) exécutions en cours d’un workflow du membre, les plus anciennes d’abord, avec les exécutions qu’elles ont appelées. `hasMore: true` indique qu’il en reste : rappeler. Le workflow d’un autre membre donne 404 `workflow.not_found`.',
    },
  },
  retryFailed: {
    summary: { en: 'Replay a workflow’s failed runs', fr: 'Rejouer les exécutions en échec d’un workflow' },
    description: withGraphScopeRule({
      en: 'Replays, oldest first, up to `limit` (1-200, default 50) failed live runs of the workflow not yet replayed, with its published version and `from` (`start` by default, or `failed_step`). The window: `since` (at most 30 days back, clamped; default 24 hours) or `period` (`24h`, `7d`, `30d`). Test runs and called runs are never included. Runs that cannot be replayed are skipped and counted (`skipped`, `skippedReasons` by refusal reason). `hasMore: true` says to call again. Another member’s workflow is 404 `workflow.not_found`.',
      fr: 'Rejoue, les plus anciennes d’abord, jusqu’à `limit` (1-200, 50 par défaut) exécutions réelles en échec du workflow pas encore rejouées, avec sa version publiée et `from` (`start` par défaut, ou `failed_step`). La fenêtre : `since` (30 jours au plus, ramené ; 24 heures par défaut) ou `period` (`24h`, `7d`, `30d`). Les exécutions de test et les exécutions appelées n’y sont jamais. Celles qui ne peuvent pas être rejouées sont sautées et comptées (`skipped`, `skippedReasons` par motif de refus). `hasMore: true` indique de rappeler. Le workflow d’un autre membre donne 404 `workflow.not_found`.',
    }, { en: 'Here the graph is the published version, checked once before any replay starts.', fr: 'Ici le graphe est la version publiée, vérifiée une fois avant tout rejeu.' }),
  },
};
