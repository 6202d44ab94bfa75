/**
 * The en/fr prose (summary and description) of instanceRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  branding: {
    summary: { en: 'Brand of the instance', fr: 'Identité visuelle de l’instance' },
    description: {
      en: 'Name, logos, colours, support link and sign-in welcome, from the instance’s environment variables.',
      fr: 'Nom, logos, couleurs, lien d’assistance et message d’accueil, tirés des variables d’environnement de l’instance.',
    },
  },
};
