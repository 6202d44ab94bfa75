/**
 * The en/fr prose (summary and description) of onboardingRouter's routes, one entry per procedure:
 * it lives here so that router.ts reads as wiring (procedure → service).
 */

export const docs = {
  status: {
    summary: { en: 'My first steps', fr: 'Mes premiers pas' },
    description: {
      en: 'Which first steps the signed-in member has done, read from what exists: `mailboxConnected` (a mailbox of theirs), `templateTried` (a "Try on my mail" evaluation of theirs), `workflowPublished` (a published workflow of theirs) and, for administrators only, `teamInvited` (an invitation was sent; null for a member). `complete` is true when every step offered to the member is done.',
      fr: 'Les premiers pas que le membre connecté a faits, lus dans ce qui existe : `mailboxConnected` (une de ses boîtes aux lettres), `templateTried` (une de ses évaluations « Essayer sur mes mails »), `workflowPublished` (un de ses workflows publié) et, pour les administrateurs seulement, `teamInvited` (une invitation a été envoyée ; null pour un membre). `complete` vaut true quand toutes les étapes proposées au membre sont faites.',
    },
  },
};
