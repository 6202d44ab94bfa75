/**
 * The en/fr prose (summary and description) of analyzerRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */
import { withGraphScopeRule } from '../workflows';

export const docs = {
  analyze: {
    summary: { en: 'Analyse a mailbox', fr: 'Analyser une boîte' },
    description: {
      en: 'Starts an analysis of the mailbox in the background: statistics from the mirror and the messages journal, sender groups (by domain and by subject pattern) and the automations a model proposes for them (`GET …/analyzer/report` follows it). `windowDays` (30, 90, 180 or 365, default 30) and `minGroupVolume` (1-1000, default 5: messages a group needs over the window). When today’s report (UTC day, not failed) exists and `force` is not set, it is answered with `reused: true` and no new analysis starts. Another member’s or an unknown mailbox is 404 `analyzer.mailbox_not_found`. 202 `{report: {id, mailboxId, status, createdAt, generatedAt, reused}}`.',
      fr: 'Lance en arrière-plan l’analyse de la boîte : statistiques tirées de la copie locale et du journal des messages, groupes d’expéditeurs (par domaine et par motif d’objet) et automatisations qu’un modèle propose pour eux (suivez-la avec `GET …/analyzer/report`). `windowDays` (30, 90, 180 ou 365, 30 par défaut) et `minGroupVolume` (1 à 1000, 5 par défaut : messages qu’un groupe doit compter sur la période). Si le rapport du jour (jour UTC, non échoué) existe et que `force` n’est pas demandé, il est renvoyé avec `reused: true` et aucune analyse ne démarre. La boîte d’un autre membre ou inconnue donne 404 `analyzer.mailbox_not_found`. 202 `{report: {id, mailboxId, status, createdAt, generatedAt, reused}}`.',
    },
  },
  report: {
    summary: { en: 'The latest analysis report of a mailbox', fr: 'Le dernier rapport d’analyse d’une boîte' },
    description: {
      en: 'The mailbox’s latest report, of any status (`pending`, `running`, `done`, `failed`): `options`, `progress` (phase and model batches), `body` (`stats`, `groups`, `opportunities` each with its evidence and the draft graph it installs) once the statistics are known, and `llmOutcome` (`ran`, `no_provider`, `nothing_to_analyze`, `failed`). `transcript` (the raw model exchanges) appears for administrators only. Never analysed: 404 `analyzer.report_not_found`; another member’s or an unknown mailbox: 404 `analyzer.mailbox_not_found`.',
      fr: 'Le dernier rapport de la boîte, quel que soit son statut (`pending`, `running`, `done`, `failed`) : `options`, `progress` (phase et lots envoyés au modèle), `body` (`stats`, `groups`, `opportunities`, chacune avec ses éléments probants et le graphe de brouillon qu’elle installe) dès que les statistiques sont connues, et `llmOutcome` (`ran`, `no_provider`, `nothing_to_analyze`, `failed`). `transcript` (les échanges bruts avec le modèle) n’apparaît que pour les administrateurs. Jamais analysée : 404 `analyzer.report_not_found` ; boîte d’un autre membre ou inconnue : 404 `analyzer.mailbox_not_found`.',
    },
  },
  createWorkflow: {
    summary: { en: 'Create the workflow an opportunity proposes', fr: 'Créer le workflow proposé par une opportunité' },
    description: withGraphScopeRule({
      en: 'Installs the draft graph of an opportunity of the mailbox’s latest report as a new, unpublished workflow of yours (its name the opportunity’s title). 201 `{workflowId}`; open it in the builder to review and publish. An opportunity not in the latest report: 404 `analyzer.opportunity_not_found`.',
      fr: 'Installe le graphe de brouillon d’une opportunité du dernier rapport de la boîte comme un nouveau workflow non publié (nommé d’après l’opportunité). 201 `{workflowId}` ; ouvrez-le dans l’éditeur pour le relire et le publier. Une opportunité absente du dernier rapport : 404 `analyzer.opportunity_not_found`.',
    }),
  },
};
