import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { journalPageOutput, listJournalInput, messageJournalOutput } from './schemas';
import { listJournal, messageJournal } from './service';
import { docs } from './docs';

const tag = 'Journal';
const read = { kind: 'scope', scope: 'messages:read' } as const;

export const journalRouter = router({
  message: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/messages/{id}/journal',
        access: read,
        errors: ['request.not_found'],
        tag,
        summary: docs.message.summary,
        description: docs.message.description,
      }),
    )
    .input(uuidParam)
    .output(messageJournalOutput)
    .query(({ ctx, input }) => messageJournal(actorOf(ctx), input.id)),

  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/journal',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listJournalInput)
    .output(journalPageOutput)
    .query(({ ctx, input }) => listJournal(actorOf(ctx), input)),
});
