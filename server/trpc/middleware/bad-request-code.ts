/**
 * A route whose spec names its own code for a malformed input (`webmail.bad_request` on thread
 * actions) answers it instead of `request.bad_request`, with the same details. Sits between
 * idempotency and input validation, so the stored answer of an idempotent request is the mapped one.
 */
import { AppError } from '../../core/errors/app-error';
import { toAppErrorFromAny } from '../errors';
import { t } from '../init';

export const badRequestCode = t.middleware(async ({ meta, next }) => {
  const code = meta?.route?.badRequestCode;
  const result = await next();
  if (!code || result.ok) return result;
  const error = toAppErrorFromAny(result.error);
  if (error.code !== 'request.bad_request') return result;
  throw new AppError(code, { details: error.details });
});
