/**
 * The en/fr prose (summary and description) of instanceRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  branding: {
    summary: { en: 'Brand of the instance', fr: 'Identité visuelle de l’instance' },
    description: {
      en: 'Name, logos, colours, support link and sign-in welcome: the operator’s brand (`source: control_plane`) when the instance is linked to its control plane and the brand was fetched, else the instance’s environment variables (`source: environment`).',
      fr: 'Nom, logos, couleurs, lien d’assistance et message d’accueil : ceux de l’opérateur (`source: control_plane`) quand l’instance est reliée à son plan de contrôle et qu’ils ont été récupérés, sinon ceux des variables d’environnement de l’instance (`source: environment`).',
    },
  },
};
