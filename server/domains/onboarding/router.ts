import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { onboardingOutput } from './schemas';
import { onboardingOf } from './service';
import { docs } from './docs';

export const onboardingRouter = router({
  status: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/me/onboarding',
        access: { kind: 'member' },
        tag: 'Session',
        summary: docs.status.summary,
        description: docs.status.description,
      }),
    )
    .output(onboardingOutput)
    .query(({ ctx }) => onboardingOf(actorOf(ctx).member)),
});
