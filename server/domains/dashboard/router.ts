import type { ErrorCode } from '../../core/errors/catalogue';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { aiFigures } from './ai';
import { AI_BREAKDOWN_LIMIT } from './ai-sql';
import { executionFigures } from './executions';
import { mailFigures } from './mail';
import { dashboardQueryInput } from './query';
import { aiOutput, executionsOutput, mailOutput } from './schemas';

const tag = 'Dashboard';
const access = { kind: 'scope', scope: 'dashboard:read' } as const;
const badRequestCode = 'dashboard.bad_request' as const;
const errors: ErrorCode[] = ['dashboard.bad_request', 'dashboard.forbidden'];

/** What every dashboard route says about its query; each route adds what it counts. */
const common = {
  en: 'Query: `scope` (`me` by default; `org` for administrators), `period` (`24h`, `7d` by default, `30d`: the window ends now; `custom` with `from` and `to`, at most 92 days), `tz` (an IANA zone, `UTC` by default: buckets are the reader’s local hours for windows up to 48 hours, local days beyond, so a daylight-saving day has 23 or 25 hours), `mailboxId`, `workflowId`, `memberId` (administrators, with `scope=org`). The previous period is as long as the window and ends at `from`. Under `scope=me`, a mailbox or workflow that is not the reader’s counts as nothing. Every malformed or inconsistent value (unknown period or zone, `custom` without both bounds, `from` ≥ `to`, a longer window, `from`/`to` without `custom`, `memberId` without `scope=org`) is 400 `dashboard.bad_request`; `scope=org` or `memberId` from a member is 403 `dashboard.forbidden`.',
  fr: 'Requête : `scope` (`me` par défaut ; `org` pour les administrateurs), `period` (`24h`, `7d` par défaut, `30d` : la fenêtre finit maintenant ; `custom` avec `from` et `to`, 92 jours au plus), `tz` (un fuseau IANA, `UTC` par défaut : les tranches sont les heures locales du lecteur pour une fenêtre de 48 heures au plus, ses jours locaux au-delà, si bien qu’un jour de changement d’heure compte 23 ou 25 heures), `mailboxId`, `workflowId`, `memberId` (administrateurs, avec `scope=org`). La période précédente a la longueur de la fenêtre et finit à `from`. En `scope=me`, une boîte ou un workflow qui n’est pas au lecteur ne compte rien. Toute valeur mal formée ou incohérente (période ou fuseau inconnus, `custom` sans ses deux bornes, `from` ≥ `to`, une fenêtre plus longue, `from`/`to` sans `custom`, `memberId` sans `scope=org`) est un 400 `dashboard.bad_request` ; `scope=org` ou `memberId` demandés par un membre sont un 403 `dashboard.forbidden`.',
};

export const dashboardRouter = router({
  executions: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/executions',
        access,
        tag,
        badRequestCode,
        errors,
        summary: { en: 'Execution figures', fr: 'Chiffres des exécutions' },
        description: { en: `Runs counted: live runs (test runs and evaluation runs, which are simulated, never count), sub-workflow runs, error-workflow runs and replays included; loop iterations left out (they are their loop step’s work). A run belongs to the window and bucket of its creation (\`createdAt\` in \`[from, to)\`): the executions list with \`simulated=false\`, \`loopIterations=false\` and the same \`from\`/\`to\` (and \`workflowId\`, \`status\`) lists exactly the runs counted. \`byStatus\` and \`series\` hold the six statuses, zeros included, in the order queued, running, waiting, succeeded, failed, cancelled; the series sum to \`current.byStatus\`. \`successRate\` = succeeded / (succeeded + failed), null when none. \`medianDurationMs\`: the exact median (\`percentile_cont(0.5)\`, the mean of the two middle values for an even count) of \`finishedAt − startedAt\` over finished runs, null when none. \`topWorkflows\`: up to 5 by runs (ties by name); \`failingWorkflows\`: up to 5 with failures, by failures (ties by name); \`lastRunAt\` is the latest run in the window. \`recentFailures\`: the 10 latest failed runs of the window, from their incidents (\`incidentId\` to acknowledge in place; a resolved incident counts as acknowledged). ${common.en}`, fr: `Exécutions comptées : les exécutions réelles (les exécutions de test et d’évaluation, simulées, ne comptent jamais), y compris les exécutions de sous-workflows, de workflows d’erreur et les rejeux ; les itérations de boucle ne comptent pas (elles sont le travail de l’étape de leur boucle). Une exécution appartient à la fenêtre et à la tranche de sa création (\`createdAt\` dans \`[from, to)\`) : la liste des exécutions avec \`simulated=false\`, \`loopIterations=false\` et les mêmes \`from\`/\`to\` (et \`workflowId\`, \`status\`) liste exactement les exécutions comptées. \`byStatus\` et \`series\` portent les six statuts, zéros compris, dans l’ordre queued, running, waiting, succeeded, failed, cancelled ; les séries ont pour somme \`current.byStatus\`. \`successRate\` = réussies / (réussies + échouées), null s’il n’y en a pas. \`medianDurationMs\` : la médiane exacte (\`percentile_cont(0.5)\`, la moyenne des deux valeurs du milieu pour un nombre pair) de \`finishedAt − startedAt\` sur les exécutions terminées, null s’il n’y en a pas. \`topWorkflows\` : 5 au plus par nombre d’exécutions (à égalité, par nom) ; \`failingWorkflows\` : 5 au plus ayant des échecs, par nombre d’échecs (à égalité, par nom) ; \`lastRunAt\` est la dernière exécution de la fenêtre. \`recentFailures\` : les 10 derniers échecs de la fenêtre, tirés de leurs incidents (\`incidentId\` pour acquitter sur place ; un incident résolu compte comme acquitté). ${common.fr}` },
      }),
    )
    .input(dashboardQueryInput)
    .output(executionsOutput)
    .query(({ ctx, input }) => executionFigures(actorOf(ctx), input)),

  mail: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/mail',
        access,
        tag,
        badRequestCode,
        errors,
        summary: { en: 'Mail figures', fr: 'Chiffres du courrier' },
        description: {
          en: `\`received\`: new messages the automation saw, one message journal entry each, created in \`[from, to)\` (messages mirrored without dispatch, by a first sync, backfill or resync, are not new mail); \`byOutcome\`: those entries by journal outcome, all five, zeros included (\`GET /api/v1/journal\` with the same \`outcome\`, \`from\` and \`to\` lists exactly them). \`automatedEmails\`: received messages ingest recognised as sent by machines: delivery reports (bounces, read receipts), auto-replies, no-reply senders, mailing-list and bulk mail (not mail from the mailbox itself), as dispatch recorded it on the entry. \`draftsPrepared\`: drafts made by workflow runs, by creation time; \`sentByWorkflows\`: messages workflow runs sent (mode send, with or without review), by delivery time. \`series\`: received and \`dispatched\` entries per bucket. \`mailboxId\` narrows to that mailbox; \`workflowId\` to the messages that started a real run of that workflow (not a test or evaluation run) and to that workflow’s drafts and sends. ${common.en}`,
          fr: `\`received\` : les nouveaux messages vus par l’automatisation, une entrée du journal des messages chacun, créée dans \`[from, to)\` (les messages recopiés sans distribution, par une première synchronisation, un rattrapage ou une resynchronisation, ne sont pas du nouveau courrier) ; \`byOutcome\` : ces entrées par résultat du journal, les cinq, zéros compris (\`GET /api/v1/journal\` avec les mêmes \`outcome\`, \`from\` et \`to\` les liste exactement). \`automatedEmails\` : les messages reçus que l’ingestion a reconnus comme envoyés par des machines : avis de non-remise et accusés de lecture, réponses automatiques, expéditeurs « no-reply », courrier de liste et envois en masse (pas le courrier de la boîte elle-même), tel que la distribution l’a noté sur l’entrée. \`draftsPrepared\` : les brouillons faits par des exécutions de workflow, selon leur création ; \`sentByWorkflows\` : les messages envoyés par des exécutions de workflow (mode envoi, avec ou sans relecture), selon leur remise. \`series\` : les entrées reçues et \`dispatched\` par tranche. \`mailboxId\` restreint à cette boîte ; \`workflowId\` aux messages qui ont démarré une vraie exécution de ce workflow (pas un test ni une évaluation) et aux brouillons et envois de ce workflow. ${common.fr}`,
        },
      }),
    )
    .input(dashboardQueryInput)
    .output(mailOutput)
    .query(({ ctx, input }) => mailFigures(actorOf(ctx), input)),

  ai: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/dashboard/ai',
        access,
        tag,
        badRequestCode,
        errors,
        summary: { en: 'AI usage and spend', fr: 'Usage et dépenses d’IA' },
        description: {
          en: `Model calls recorded in \`[from, to)\` (one usage row per call: AI nodes, the assistant, the analyzer). Totals for the window and the previous period: \`calls\`, input, output and reasoning tokens, \`costUsd\` (the sum of priced calls only), \`unpricedCalls\` (calls with no known price, a local model say: their cost is never guessed), \`instanceCostUsd\` (what the instance paid, the part budgets count) and \`memberKeys\` (calls on members’ own keys, paid by their accounts). \`byModel\` (provider and model), \`byPurpose\` and \`byMember\` (administrators only, else empty; \`memberName\` null for a deleted member) cover the window, costliest first then most called, at most ${AI_BREAKDOWN_LIMIT} rows each. \`series\`: calls and cost per bucket. \`budgets\`: the current calendar month in UTC, whatever the window: the instance-paid spend of every member against the instance budget, and that of the reader (or of \`memberId\`) against the member budget, read by the budget enforcement’s own statement. \`workflowId\` narrows to calls made for that workflow; \`mailboxId\` to calls made by runs of that mailbox (usage has no mailbox of its own: assistant and analyzer calls are then left out). Money is in USD, rounded to 6 decimals. ${common.en}`,
          fr: `Les appels de modèle enregistrés dans \`[from, to)\` (une ligne d’usage par appel : nœuds d’IA, assistant, analyseur). Totaux de la fenêtre et de la période précédente : \`calls\`, jetons d’entrée, de sortie et de raisonnement, \`costUsd\` (la somme des seuls appels dont le prix est connu), \`unpricedCalls\` (les appels sans prix connu, un modèle local par exemple : leur coût n’est jamais deviné), \`instanceCostUsd\` (ce que l’instance a payé, la part que comptent les budgets) et \`memberKeys\` (les appels sur les clés propres des membres, payés par leurs comptes). \`byModel\` (fournisseur et modèle), \`byPurpose\` et \`byMember\` (administrateurs seulement, sinon vide ; \`memberName\` null pour un membre supprimé) couvrent la fenêtre, du plus coûteux au moins coûteux puis du plus appelé au moins appelé, ${AI_BREAKDOWN_LIMIT} lignes au plus chacun. \`series\` : appels et coût par tranche. \`budgets\` : le mois civil en cours en UTC, quelle que soit la fenêtre : la dépense payée par l’instance de tous les membres face au budget de l’instance, et celle du lecteur (ou de \`memberId\`) face au budget par membre, lues par la requête même du contrôle des budgets. \`workflowId\` restreint aux appels faits pour ce workflow ; \`mailboxId\` aux appels faits par des exécutions de cette boîte (l’usage n’a pas de boîte à lui : les appels de l’assistant et de l’analyseur sont alors écartés). Les montants sont en USD, arrondis à 6 décimales. ${common.fr}`,
        },
      }),
    )
    .input(dashboardQueryInput)
    .output(aiOutput)
    .query(({ ctx, input }) => aiFigures(actorOf(ctx), input)),
});
