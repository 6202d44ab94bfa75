/**
 * The en/fr prose (summary and description) of auditRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  list: {
    summary: { en: 'Read the audit log', fr: 'Consulter le journal d’audit' },
    description: {
      en: 'Entries most recent first, filtered by `action`, `actor` (member id) and `since`; cursor pagination (`limit` 1-200, default 50).',
      fr: 'Entrées des plus récentes aux plus anciennes, filtrées par `action`, `actor` (id du membre) et `since` ; pagination par curseur (`limit` 1-200, 50 par défaut).',
    },
  },
};
