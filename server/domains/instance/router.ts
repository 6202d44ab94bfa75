import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { brandingSchema } from './schemas';
import { currentBranding } from './service';

export const instanceRouter = router({
  branding: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/branding',
        access: { kind: 'public' },
        tag: 'Instance',
        summary: { en: 'Brand of the instance', fr: 'Identité visuelle de l’instance' },
        description: {
          en: 'Name, logos, colours, support link and sign-in welcome, from the instance’s environment variables.',
          fr: 'Nom, logos, couleurs, lien d’assistance et message d’accueil, tirés des variables d’environnement de l’instance.',
        },
      }),
    )
    .output(brandingSchema)
    .query(() => currentBranding()),
});
