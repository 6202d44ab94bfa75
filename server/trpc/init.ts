/**
 * The tRPC instance. The error formatter puts the catalogue envelope into `error.data.appError` so
 * UI callers see the same code, message and details as REST callers.
 */
import { initTRPC } from '@trpc/server';
import type { RequestContext } from './context';
import { envelopeOf } from './errors';
import type { RouteMeta } from './meta';

export const t = initTRPC
  .context<RequestContext>()
  .meta<RouteMeta>()
  .create({
    errorFormatter({ shape, error }) {
      const { status, body } = envelopeOf(error);
      return { ...shape, message: body.error.message, data: { httpStatus: status, appError: body.error } };
    },
  });
