/**
 * The en/fr prose (summary and description) of llmSpendRouter's routes, one entry per procedure:
 * it lives here so that spend-router.ts reads as wiring (procedure → service).
 */

export const docs = {
  getPrices: {
    summary: { en: 'Read the AI price table', fr: 'Consulter la grille de prix IA' },
    description: {
      en: 'Prices in USD per million tokens per provider and model (`*`: every other model of the provider). A call’s cost is computed from them when it is recorded; a model without a price has a null cost.',
      fr: 'Prix en USD par million de jetons, par fournisseur et modèle (`*` : tout autre modèle du fournisseur). Le coût d’un appel en est calculé quand il est enregistré ; un modèle sans prix a un coût null.',
    },
  },
  putPrices: {
    summary: { en: 'Replace the AI price table', fr: 'Remplacer la grille de prix IA' },
    description: {
      en: '`prices`: the whole table (≤ 1000 entries of {provider, model 1-128 or `*`, inputUsdPerMillion, outputUsdPerMillion, reasoningUsdPerMillion (null: the output price)}, each 0 to 1,000,000), one entry per provider and model (a repeat is 400). Costs already recorded keep their price. Audited (`llm.prices_updated`).',
      fr: '`prices` : la grille entière (≤ 1000 entrées {provider, model 1-128 ou `*`, inputUsdPerMillion, outputUsdPerMillion, reasoningUsdPerMillion (null : le prix de sortie)}, chacun de 0 à 1 000 000), une entrée par fournisseur et modèle (une répétition donne 400). Les coûts déjà enregistrés gardent leur prix. Journalisé (`llm.prices_updated`).',
    },
  },
  getBudgets: {
    summary: { en: 'Read the AI budgets', fr: 'Consulter les budgets IA' },
    description: {
      en: 'The monthly hard budgets in USD (calendar month, UTC): `instanceMonthlyUsd` for the whole instance, `memberMonthlyUsd` for each member; null: none. With the month’s spending so far (`instanceSpentUsd`). A model call beyond a budget is refused with 402 `llm.budget_exceeded` and costs nothing.',
      fr: 'Les budgets mensuels stricts en USD (mois civil, UTC) : `instanceMonthlyUsd` pour toute l’instance, `memberMonthlyUsd` pour chaque membre ; null : aucun. Avec la dépense du mois jusqu’ici (`instanceSpentUsd`). Un appel de modèle au-delà d’un budget est refusé par 402 `llm.budget_exceeded` et ne coûte rien.',
    },
  },
  putBudgets: {
    summary: { en: 'Set the AI budgets', fr: 'Fixer les budgets IA' },
    description: {
      en: '`instanceMonthlyUsd`, `memberMonthlyUsd`: 0 to 1,000,000,000 USD, null for none, absent to keep. Takes effect for the next call. Answers 200 as the read. Audited (`llm.budgets_updated`).',
      fr: '`instanceMonthlyUsd`, `memberMonthlyUsd` : de 0 à 1 000 000 000 USD, null pour aucun, absent pour garder. S’applique dès l’appel suivant. Répond 200 comme la lecture. Journalisé (`llm.budgets_updated`).',
    },
  },
  usage: {
    summary: { en: 'Summarise AI usage for a month', fr: 'Résumer la consommation IA d’un mois' },
    description: {
      en: 'Model calls of a calendar month (`month` `YYYY-MM`, UTC; default the current one): `totals`, then `byMember`, `byPurpose` and `byModel`, costliest first. Each figure set: calls, input, output and reasoning tokens, `costUsd` (the sum of known costs), `unpricedCalls`, and `ownKeysCostUsd` (the part of the cost spent on members’ own keys, which counts against no budget).',
      fr: 'Appels de modèles d’un mois civil (`month` `YYYY-MM`, UTC ; par défaut le mois en cours) : `totals`, puis `byMember`, `byPurpose` et `byModel`, les plus coûteux d’abord. Chaque série : appels, jetons d’entrée, de sortie et de raisonnement, `costUsd` (la somme des coûts connus), `unpricedCalls`, et `ownKeysCostUsd` (la part du coût dépensée sur les clés propres des membres, qui ne compte dans aucun budget).',
    },
  },
};
