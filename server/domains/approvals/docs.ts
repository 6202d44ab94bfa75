/**
 * The en/fr prose (summary and description) of approvalsRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'List my approvals', fr: 'Lister mes approbations' },
    description: {
      en: 'The approvals asked by the member’s workflow runs, newest first, by `status` (`pending` by default, `approved`, `rejected`, `expired`; a cancelled run’s approval is `expired`). Each carries its run (`executionId`, `workflowName`) and, for a run started by a mail, the triggering message (`trigger`, from the mirror). `messageId` keeps the approvals of runs started by that message, as one page (`nextCursor` null). Cursor pagination (`limit` 1-100, default 50; above 100 is a 400); an unreadable cursor gives the first page.',
      fr: 'Les approbations demandées par les exécutions des workflows du membre, des plus récentes aux plus anciennes, par `status` (`pending` par défaut, `approved`, `rejected`, `expired` ; l’approbation d’une exécution annulée est `expired`). Chacune porte son exécution (`executionId`, `workflowName`) et, pour une exécution lancée par un e-mail, le message déclencheur (`trigger`, lu dans le miroir). `messageId` garde les approbations des exécutions lancées par ce message, en une seule page (`nextCursor` null). Pagination par curseur (`limit` 1-100, 50 par défaut ; au-delà de 100, 400) ; un curseur illisible donne la première page.',
    },
  },
  decide: {
    summary: { en: 'Approve or reject', fr: 'Approuver ou refuser' },
    description: {
      en: 'Decides one of the member’s pending approvals (`decision`: `approve` or `reject`) and resumes the waiting run in the same transaction: the run goes back to `queued` and continues on the decided output; the rest arrives over the real-time channel. Answers the approval (not the execution) and `resumed`. An approval already decided, expired or whose run was cancelled is 409 `approval.already_decided` (`details.status` says what holds); another member’s approval is 404 `approval.not_found`. Accepts `Idempotency-Key`: a repeat answers the first decision.',
      fr: 'Décide une approbation en attente du membre (`decision` : `approve` ou `reject`) et reprend l’exécution en attente dans la même transaction : l’exécution repasse `queued` et continue par la sortie choisie ; la suite arrive par le canal temps réel. Répond l’approbation (pas l’exécution) et `resumed`. Une approbation déjà décidée, expirée ou dont l’exécution a été annulée donne 409 `approval.already_decided` (`details.status` dit ce qui tient) ; l’approbation d’un autre membre donne 404 `approval.not_found`. Accepte `Idempotency-Key` : une répétition répond la première décision.',
    },
  },
};
