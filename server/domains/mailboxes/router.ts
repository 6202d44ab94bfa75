import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import {
  backfillInput,
  backfillOutput,
  connectImapInput,
  connectImapOutput,
  deleteOutput,
  disconnectOutput,
  enqueuedOutput,
  mailboxIdInput,
  mailboxListOutput,
  removalImpactOutput,
  resyncInput,
} from './schemas';
import { connectImap } from './connect';
import { listMailboxes, removalImpact } from './service';
import { requestBackfill, requestResync, requestSync } from './sync-requests';
import { deleteMailbox, disconnectMailbox } from './teardown';
import { mailboxHealth } from './health';
import { mailboxHealthInput, mailboxHealthOutput } from './health-schemas';
import { docs } from './docs';

const tag = 'Mailboxes';
const read = { kind: 'scope', scope: 'mailboxes:read' } as const;
const write = { kind: 'scope', scope: 'mailboxes:write' } as const;

export const mailboxesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/mailboxes',
        access: read,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .output(mailboxListOutput)
    .query(({ ctx }) => listMailboxes(actorOf(ctx))),

  health: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/mailboxes/health',
        access: read,
        errors: ['auth.forbidden'],
        tag,
        summary: docs.health.summary,
        description: docs.health.description,
      }),
    )
    .input(mailboxHealthInput)
    .output(mailboxHealthOutput)
    .query(({ ctx, input }) => mailboxHealth(actorOf(ctx), input)),

  connectImap: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/imap',
        access: write,
        throttle: { bucket: 'connection_checks' },
        idempotent: true,
        status: 201,
        errors: [
          'credentials.encryption_disabled',
          'imap.host_not_found',
          'imap.unreachable',
          'imap.tls_failed',
          'imap.auth_failed',
          'smtp.host_not_found',
          'smtp.unreachable',
          'smtp.tls_failed',
          'smtp.auth_failed',
        ],
        tag,
        summary: docs.connectImap.summary,
        description: docs.connectImap.description,
      }),
    )
    .input(connectImapInput)
    .output(connectImapOutput)
    .mutation(({ ctx, input }) => connectImap(actorOf(ctx), input, ctx.ip)),

  sync: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/sync',
        access: write,
        idempotent: true,
        status: 202,
        errors: ['mailbox.not_found', 'mailbox.not_active'],
        tag,
        summary: docs.sync.summary,
        description: docs.sync.description,
      }),
    )
    .input(mailboxIdInput)
    .output(enqueuedOutput)
    .mutation(({ ctx, input }) => requestSync(actorOf(ctx), input.id)),

  resync: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/resync',
        access: write,
        idempotent: true,
        status: 202,
        errors: ['mailbox.not_found', 'mailbox.resync_window_invalid', 'mailbox.not_active'],
        tag,
        summary: docs.resync.summary,
        description: docs.resync.description,
      }),
    )
    .input(resyncInput)
    .output(enqueuedOutput)
    .mutation(({ ctx, input }) => requestResync(actorOf(ctx), input)),

  backfill: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/backfill',
        access: write,
        status: 202,
        errors: ['mailbox.not_found', 'mailbox.not_active'],
        tag,
        summary: docs.backfill.summary,
        description: docs.backfill.description,
      }),
    )
    .input(backfillInput)
    .output(backfillOutput)
    .mutation(({ ctx, input }) => requestBackfill(actorOf(ctx), input, ctx.ip)),

  removalImpact: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/mailboxes/{id}/removal-impact',
        access: read,
        errors: ['mailbox.not_found'],
        tag,
        summary: docs.removalImpact.summary,
        description: docs.removalImpact.description,
      }),
    )
    .input(mailboxIdInput)
    .output(removalImpactOutput)
    .query(({ ctx, input }) => removalImpact(actorOf(ctx), input.id)),

  disconnect: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/mailboxes/{id}/disconnect',
        access: write,
        errors: ['mailbox.not_found'],
        tag,
        summary: docs.disconnect.summary,
        description: docs.disconnect.description,
      }),
    )
    .input(mailboxIdInput)
    .output(disconnectOutput)
    .mutation(({ ctx, input }) => disconnectMailbox(actorOf(ctx), input.id, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/mailboxes/{id}',
        access: write,
        errors: ['mailbox.not_found'],
        tag,
        summary: docs.delete.summary,
        description: docs.delete.description,
      }),
    )
    .input(mailboxIdInput)
    .output(deleteOutput)
    .mutation(({ ctx, input }) => deleteMailbox(actorOf(ctx), input.id, ctx.ip)),
});
