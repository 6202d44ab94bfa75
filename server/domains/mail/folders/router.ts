/** GET /api/v1/folders. */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { listFoldersInput, listFoldersOutput } from './schemas';
import { listFolders } from './service';
import { docs } from './docs';

export const foldersRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/folders',
        access: { kind: 'scope', scope: 'mailboxes:read' },
        tag: 'Mail',
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listFoldersInput)
    .output(listFoldersOutput)
    .query(({ ctx, input }) => listFolders(actorOf(ctx), input)),
});
