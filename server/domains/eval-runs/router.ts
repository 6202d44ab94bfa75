/** The evaluation runs' routes (ours, in the spec's style; the spec names `GET /api/v1/eval-runs/{id}`). */
import type { ErrorCode } from '../../core/errors/catalogue';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { evalCasePageOutput, evalRunIdInput, evalRunListOutput, evalRunOutput, listCasesInput, listEvalRunsInput, startEvalInput } from './schemas';
import { cancelEvalRun, getEvalRun, listEvalCases, listEvalRuns, startEvalRun } from './service';
import { withGraphScopeRule } from '../workflows';

const tag = 'Evaluation runs';
const read = { kind: 'scope', scope: 'workflows:read' } as const;
const write = { kind: 'scope', scope: 'workflows:write' } as const;
const runNotFound: ErrorCode[] = ['eval.not_found'];

export const evalRunsRouter = router({
  start: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/workflows/{id}/eval-runs',
        access: write,
        throttle: { bucket: 'eval_runs' },
        idempotent: true,
        status: 202,
        errors: [
          'workflow.not_found',
          'workflow.version_not_found',
          'workflow.invalid_graph',
          'workflow.not_published',
          'workflow.trigger_data_too_large',
          'eval.no_cases',
          'eval.source_unsupported',
          'eval.already_running',
          'llm.budget_exceeded',
        ],
        tag,
        summary: { en: 'Start an evaluation run', fr: 'Lancer une évaluation' },
        description: withGraphScopeRule({
          en: 'Runs a version of the workflow in simulation over a set of cases and records what it would do, never producing a real effect (no mail sent, drafted or moved, no table written). `versionId`: one of the workflow’s versions (404 `workflow.version_not_found`); default a snapshot of the draft as it is now (it must be valid: 400 `workflow.invalid_graph`). `source`: `{kind: "recent", limit}` (default, limit 200: the last N mirrored messages of the trigger’s mailboxes, newest first), `{kind: "range", from, to, limit}` (received in [from, to)), or `{kind: "trigger_data", items}` (1-50 objects of ≤ 256 KB, else 400 `workflow.trigger_data_too_large`). A message source needs a mail trigger (409 `eval.source_unsupported`) and at least one message (409 `eval.no_cases`). Each message is first checked against the trigger as real mail dispatch checks it (exclusions, mail from the mailbox itself, mailboxes, folders and filters); only those it matches run. `baseline`: `published` (the published version, in simulation too, on the same cases; 409 `workflow.not_published` without one), `journal` (what really happened: the real runs of the workflow on each message), `none`; default `published` when there is a published version, else `none`. One evaluation of a workflow at a time (409 `eval.already_running`, `details.evalRunId`). The runs of an evaluation are simulated, hold no slot and are not listed among executions. `callModels` (default false): AI nodes call their model for real, in the evaluated version and in the published baseline, with their usage and cost recorded (`costUsd` on the run) and the AI budgets enforced: a budget already spent refuses the start (402 `llm.budget_exceeded`); a budget spent during the run ends each further case that reaches an AI node with the error `llm.budget_exceeded`, and the run ends `failed` with that error only when every case that ran ended so. Without it AI nodes answer their pinned or simulated output. 202 `{evalRun}`; follow it with `GET /api/v1/eval-runs/{id}`.',
          fr: 'Exécute une version du workflow en simulation sur un ensemble de cas et enregistre ce qu’elle ferait, sans jamais produire d’effet réel (aucun courriel envoyé, mis en brouillon ou déplacé, aucune table écrite). `versionId` : une des versions du workflow (404 `workflow.version_not_found`) ; par défaut un instantané du brouillon tel qu’il est (il doit être valide : 400 `workflow.invalid_graph`). `source` : `{kind: "recent", limit}` (par défaut, limit 200 : les N derniers messages copiés des boîtes du déclencheur, du plus récent au plus ancien), `{kind: "range", from, to, limit}` (reçus dans [from, to)) ou `{kind: "trigger_data", items}` (1 à 50 objets de ≤ 256 Ko, sinon 400 `workflow.trigger_data_too_large`). Une source de messages exige un déclencheur courriel (409 `eval.source_unsupported`) et au moins un message (409 `eval.no_cases`). Chaque message est d’abord confronté au déclencheur comme le fait la distribution réelle du courrier (exclusions, courrier de la boîte elle-même, boîtes, dossiers et filtres) ; seuls ceux qui lui correspondent s’exécutent. `baseline` : `published` (la version publiée, simulée elle aussi, sur les mêmes cas ; 409 `workflow.not_published` sans version publiée), `journal` (ce qui s’est réellement passé : les exécutions réelles du workflow sur chaque message), `none` ; par défaut `published` s’il existe une version publiée, sinon `none`. Une seule évaluation d’un workflow à la fois (409 `eval.already_running`, `details.evalRunId`). Les exécutions d’une évaluation sont simulées, n’occupent aucun créneau et ne figurent pas dans la liste des exécutions. `callModels` (false par défaut) : les nœuds d’IA appellent réellement leur modèle, dans la version évaluée comme dans la version publiée de référence, avec leur consommation et leur coût enregistrés (`costUsd` sur l’évaluation) et les budgets d’IA appliqués : un budget déjà épuisé refuse le lancement (402 `llm.budget_exceeded`) ; un budget épuisé en cours de route termine chaque cas suivant qui atteint un nœud d’IA avec l’erreur `llm.budget_exceeded`, et l’évaluation ne se termine `failed` avec cette erreur que si tous les cas exécutés se sont terminés ainsi. Sans cette option, les nœuds d’IA répondent leur sortie épinglée ou simulée. 202 `{evalRun}` ; suivez-la avec `GET /api/v1/eval-runs/{id}`.',
        }, { en: 'Here the graphs are the evaluated version and, with the `published` baseline, the published version; the `journal` baseline also needs `executions:read` (`details.reasons`: `journal_baseline`).', fr: 'Ici les graphes sont la version évaluée et, avec la référence `published`, la version publiée ; la référence `journal` exige aussi `executions:read` (`details.reasons` : `journal_baseline`).' }),
      }),
    )
    .input(startEvalInput)
    .output(evalRunOutput)
    .mutation(({ ctx, input }) => startEvalRun(actorOf(ctx), input)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/workflows/{id}/eval-runs',
        access: read,
        errors: ['workflow.not_found'],
        tag,
        summary: { en: 'Latest evaluation runs of a workflow', fr: 'Dernières évaluations d’un workflow' },
        description: {
          en: 'The workflow’s latest evaluation runs, newest first: `limit` (1-50, default 10).',
          fr: 'Les dernières évaluations du workflow, de la plus récente à la plus ancienne : `limit` (1 à 50, 10 par défaut).',
        },
      }),
    )
    .input(listEvalRunsInput)
    .output(evalRunListOutput)
    .query(({ ctx, input }) => listEvalRuns(actorOf(ctx), input)),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/eval-runs/{id}',
        access: read,
        errors: runNotFound,
        tag,
        summary: { en: 'An evaluation run', fr: 'Une évaluation' },
        description: {
          en: 'Status (`queued`, `running`, `succeeded`, `failed`, `cancelled`), progress `{done, total}`, figures so far (`triggered`: cases the trigger matches; `wouldSend` / `wouldDraft`: messages the version would send or draft for review; `errors`: cases ending in an error; `changed`: cases that differ from the baseline), `reasons` (why cases were not triggered, grouped by `verdict`, `ruleRef` and `param`, the trigger parameter to change, with their `count`, the most frequent first, at most 10 groups), the baseline and the times. Another member’s run is 404 `eval.not_found`.',
          fr: 'Statut (`queued`, `running`, `succeeded`, `failed`, `cancelled`), avancement `{done, total}`, chiffres à ce stade (`triggered` : cas auxquels le déclencheur correspond ; `wouldSend` / `wouldDraft` : messages que la version enverrait ou préparerait en brouillon pour relecture ; `errors` : cas terminés en erreur ; `changed` : cas qui diffèrent de la référence), `reasons` (pourquoi des cas n’ont pas été déclenchés, regroupés par `verdict`, `ruleRef` et `param`, le paramètre du déclencheur à changer, avec leur nombre `count`, les plus fréquents d’abord, 10 groupes au plus), la référence et les horaires. L’évaluation d’un autre membre donne 404 `eval.not_found`.',
        },
      }),
    )
    .input(evalRunIdInput)
    .output(evalRunOutput)
    .query(({ ctx, input }) => getEvalRun(actorOf(ctx), input.id)),

  cases: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/eval-runs/{id}/cases',
        access: read,
        errors: runNotFound,
        tag,
        summary: { en: 'The cases of an evaluation run', fr: 'Les cas d’une évaluation' },
        description: {
          en: 'A cursor list in the cases’ order (the newest message first; given trigger data in its order): `limit` (1-200, default 50), `cursor`, `changed=true` (only cases that differ from the baseline), `outcome` (`triggered`, `not_triggered`, `error`, `effects`). Each case: the message and its headline, `triggered`, `reason` (why the trigger would not start the version, by mail dispatch’s rules: `verdict` `excluded`, `guardrail`, `filtered`, `other_mailbox` or `invalid_trigger`, `ruleRef`, `param`; null when it would), `path` (node ids that ran, in order), `effects` (simulated), `error`, `baseline` (the same for the baseline) and `changed`.',
          fr: 'Une liste à curseur dans l’ordre des cas (le message le plus récent d’abord ; les données de déclenchement fournies dans leur ordre) : `limit` (1 à 200, 50 par défaut), `cursor`, `changed=true` (seulement les cas qui diffèrent de la référence), `outcome` (`triggered`, `not_triggered`, `error`, `effects`). Chaque cas : le message et son en-tête, `triggered`, `reason` (pourquoi le déclencheur ne démarrerait pas la version, selon les règles de distribution du courrier : `verdict` `excluded`, `guardrail`, `filtered`, `other_mailbox` ou `invalid_trigger`, `ruleRef`, `param` ; null quand il la démarrerait), `path` (les nœuds exécutés, dans l’ordre), `effects` (simulés), `error`, `baseline` (la même chose pour la référence) et `changed`.',
        },
      }),
    )
    .input(listCasesInput)
    .output(evalCasePageOutput)
    .query(({ ctx, input }) => listEvalCases(actorOf(ctx), input)),

  cancel: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/eval-runs/{id}/cancel',
        access: write,
        errors: [...runNotFound, 'eval.not_cancellable'],
        tag,
        summary: { en: 'Cancel an evaluation run', fr: 'Annuler une évaluation' },
        description: {
          en: 'Stops a queued or running evaluation: its simulated runs in progress are cancelled and cases not done become `cancelled`; finished cases and figures stay. A finished evaluation is 409 `eval.not_cancellable`.',
          fr: 'Arrête une évaluation en file ou en cours : ses exécutions simulées en cours sont annulées et les cas non terminés passent à `cancelled` ; les cas terminés et les chiffres restent. Une évaluation terminée donne 409 `eval.not_cancellable`.',
        },
      }),
    )
    .input(evalRunIdInput)
    .output(evalRunOutput)
    .mutation(({ ctx, input }) => cancelEvalRun(actorOf(ctx), input.id)),
});
