/**
 * The en/fr prose (summary and description) of sendGuardRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  listHolds: {
    summary: { en: 'List my send holds', fr: 'Lister mes retenues d’envoi' },
    description: {
      en: 'Holds of the blast-radius guard on your sends, newest first: open ones by default, `status=all` for released ones too. A hold keeps sends of a mailbox (its hourly cap) or of a workflow (its hourly cap, replies to an auto-responder, one recipient again and again); the kept items wait in `held`, nothing is dropped. Cursor pagination (`limit` 1-100, default 50).',
      fr: 'Les retenues du garde-fou sur vos envois, les plus récentes d’abord : les ouvertes par défaut, `status=all` pour y ajouter les levées. Une retenue garde les envois d’une boîte (son plafond horaire) ou d’un workflow (son plafond horaire, des réponses à un répondeur automatique, un même destinataire encore et encore) ; les éléments gardés attendent en `held`, rien n’est perdu. Pagination par curseur (`limit` 1-100, 50 par défaut).',
    },
  },
  releaseHold: {
    summary: { en: 'Release a send hold', fr: 'Lever une retenue d’envoi' },
    description: {
      en: 'Releases the hold: every item it keeps goes back to `pending` and is sent (journal `released`); the workflow it paused is un-paused (`details.unpausedWorkflow`); the released items are not held again by the same rule, and that rule counts sends from now on. Releasing again answers the hold unchanged. Another member’s hold is 404 `send_hold.not_found`.',
      fr: 'Lève la retenue : chaque élément gardé repasse en `pending` et part (journal `released`) ; le workflow qu’elle avait mis en pause reprend (`details.unpausedWorkflow`) ; les éléments libérés ne sont plus retenus par la même règle, qui compte les envois à partir de maintenant. Une nouvelle levée renvoie la retenue inchangée. La retenue d’un autre membre donne 404 `send_hold.not_found`.',
    },
  },
};
