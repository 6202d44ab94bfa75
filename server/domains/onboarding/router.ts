import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { onboardingOutput } from './schemas';
import { onboardingOf } from './service';

export const onboardingRouter = router({
  status: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/me/onboarding',
        access: { kind: 'member' },
        tag: 'Session',
        summary: { en: 'My first steps', fr: 'Mes premiers pas' },
        description: {
          en: 'Which first steps the signed-in member has done, read from what exists: `mailboxConnected` (a mailbox of theirs), `templateTried` (a "Try on my mail" evaluation of theirs), `workflowPublished` (a published workflow of theirs) and, for administrators only, `teamInvited` (an invitation was sent; null for a member). `complete` is true when every step offered to the member is done.',
          fr: 'Les premiers pas que le membre connecté a faits, lus dans ce qui existe : `mailboxConnected` (une de ses boîtes aux lettres), `templateTried` (une de ses évaluations « Essayer sur mes mails »), `workflowPublished` (un de ses workflows publié) et, pour les administrateurs seulement, `teamInvited` (une invitation a été envoyée ; null pour un membre). `complete` vaut true quand toutes les étapes proposées au membre sont faites.',
        },
      }),
    )
    .output(onboardingOutput)
    .query(({ ctx }) => onboardingOf(actorOf(ctx).member)),
});
