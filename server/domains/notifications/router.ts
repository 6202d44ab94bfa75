import { uuidParam } from '../../core/http/schemas';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { archiveOutput, listNotificationsInput, notificationOutput, notificationPageOutput, readAllOutput } from './schemas';
import { archive, listNotifications, markAllRead, markRead } from './service';
import { docs } from './docs';

const tag = 'Notifications';
const read = { kind: 'scope', scope: 'notifications:read' } as const;
const write = { kind: 'scope', scope: 'notifications:write' } as const;

export const notificationsRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/notifications',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listNotificationsInput)
    .output(notificationPageOutput)
    .query(({ ctx, input }) => listNotifications(actorOf(ctx), input)),

  read: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/notifications/{id}/read',
        access: write,
        tag,
        summary: docs.read.summary,
        description: docs.read.description,
      }),
    )
    .input(uuidParam)
    .output(notificationOutput)
    .mutation(({ ctx, input }) => markRead(actorOf(ctx), input.id)),

  readAll: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/notifications/read-all',
        access: write,
        tag,
        summary: docs.readAll.summary,
        description: docs.readAll.description,
      }),
    )
    .output(readAllOutput)
    .mutation(({ ctx }) => markAllRead(actorOf(ctx))),

  archive: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/notifications/{id}/archive',
        access: write,
        tag,
        summary: docs.archive.summary,
        description: docs.archive.description,
      }),
    )
    .input(uuidParam)
    .output(archiveOutput)
    .mutation(({ ctx, input }) => archive(actorOf(ctx), input.id)),
});
