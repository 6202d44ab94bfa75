/**
 * Some areas answer their own code for an input that does not match the route's schema (the spec's
 * connection routes answer `credential.bad_request`, not `request.bad_request`). Placed before the
 * route's `.input()`, this answers the schema's 400 (and a service's `request.bad_request`) under
 * that code, with the same details. Malformed JSON and unstorable text, refused before the schema,
 * keep the common `request.bad_request`.
 */
import { appError } from '../../core/errors/app-error';
import type { ErrorCode } from '../../core/errors/catalogue';
import { toAppErrorFromAny } from '../errors';
import { t } from '../init';

export function inputErrorsAs(code: ErrorCode) {
  return t.middleware(async ({ next }) => {
    const result = await next();
    if (result.ok) return result;
    const error = toAppErrorFromAny(result.error);
    if (error.code !== 'request.bad_request') return result;
    throw appError(code, { details: error.details });
  });
}
