import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { listSendingJournal } from './journal/service';
import {
  listReviewInput,
  listSendingJournalInput,
  reviewBatchInput,
  reviewBatchOutput,
  reviewDetailInput,
  reviewDetailOutput,
  reviewItemOutput,
  reviewPageOutput,
  reviewRejectInput,
  reviewResolveInput,
  reviewSendInput,
  reviewSendOutput,
  reviewSnoozeInput,
  sendingJournalPageOutput,
} from './schemas';
import { rejectReviewItem, resolveReviewItem, snoozeReviewItem } from './decide';
import { sendReviewBatch, sendReviewItem } from './send';
import { getReviewItem, listReview } from './service';
import { docs } from './docs';

const tag = 'Review';
const read = { kind: 'scope', scope: 'review:read' } as const;
const write = { kind: 'scope', scope: 'review:write' } as const;
/**
 * `review.bad_request` only on the routes whose spec entry lists it (the review list, send, send
 * selection) and on ours that the spec does not show (snooze, resolve). The read of one item, the
 * rejection and the sending journal list no code of their own there, so the common
 * `request.bad_request` of Errors 2 applies to them.
 */
const badRequestCode = 'review.bad_request' as const;

export const reviewRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/review',
        access: read,
        badRequestCode,
        tag,
        summary: docs.list.summary,
        description: docs.list.description,
      }),
    )
    .input(listReviewInput)
    .output(reviewPageOutput)
    .query(({ ctx, input }) => listReview(actorOf(ctx), input)),

  detail: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/review/{id}',
        access: read,
        errors: ['review.not_found', 'review.content_gone'],
        tag,
        summary: docs.detail.summary,
        description: docs.detail.description,
      }),
    )
    .input(reviewDetailInput)
    .output(reviewDetailOutput)
    .query(({ ctx, input }) => getReviewItem(actorOf(ctx), input)),

  send: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/review/{id}/send',
        access: write,
        idempotent: true,
        status: 202,
        badRequestCode,
        errors: ['review.not_found', 'review.already_resolved', 'review.content_gone'],
        tag,
        summary: docs.send.summary,
        description: docs.send.description,
      }),
    )
    .input(reviewSendInput)
    .output(reviewSendOutput)
    .mutation(({ ctx, input }) => sendReviewItem(actorOf(ctx), input)),

  sendMany: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/review/send',
        access: write,
        idempotent: true,
        status: 202,
        badRequestCode,
        tag,
        summary: docs.sendMany.summary,
        description: docs.sendMany.description,
      }),
    )
    .input(reviewBatchInput)
    .output(reviewBatchOutput)
    .mutation(({ ctx, input }) => sendReviewBatch(actorOf(ctx), input)),

  reject: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/review/{id}/reject',
        access: write,
        errors: ['review.not_found', 'review.already_resolved', 'review.content_gone'],
        tag,
        summary: docs.reject.summary,
        description: docs.reject.description,
      }),
    )
    .input(reviewRejectInput)
    .output(reviewItemOutput)
    .mutation(({ ctx, input }) => rejectReviewItem(actorOf(ctx), input)),

  snooze: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/review/{id}/snooze',
        access: write,
        badRequestCode,
        errors: ['review.not_found', 'review.already_resolved', 'review.content_gone'],
        tag,
        summary: docs.snooze.summary,
        description: docs.snooze.description,
      }),
    )
    .input(reviewSnoozeInput)
    .output(reviewItemOutput)
    .mutation(({ ctx, input }) => snoozeReviewItem(actorOf(ctx), input)),

  resolve: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/review/{id}/resolve',
        access: write,
        badRequestCode,
        errors: ['review.not_found', 'review.not_unknown', 'review.content_gone'],
        tag,
        summary: docs.resolve.summary,
        description: docs.resolve.description,
      }),
    )
    .input(reviewResolveInput)
    .output(reviewItemOutput)
    .mutation(({ ctx, input }) => resolveReviewItem(actorOf(ctx), input)),

  journal: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/sending/journal',
        access: read,
        tag,
        summary: docs.journal.summary,
        description: docs.journal.description,
      }),
    )
    .input(listSendingJournalInput)
    .output(sendingJournalPageOutput)
    .query(({ ctx, input }) => listSendingJournal(actorOf(ctx), input)),
});
