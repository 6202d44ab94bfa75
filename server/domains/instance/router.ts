import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';
import { brandingSchema } from './schemas';
import { brandingAnswer } from './service';
import { docs } from './docs';

export const instanceRouter = router({
  branding: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/branding',
        access: { kind: 'public' },
        tag: 'Instance',
        summary: docs.branding.summary,
        description: docs.branding.description,
      }),
    )
    .output(brandingSchema)
    .query(() => brandingAnswer()),
});
