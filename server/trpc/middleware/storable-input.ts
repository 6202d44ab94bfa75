/**
 * Refuses input text PostgreSQL cannot store (NUL, unpaired surrogates) with 400 before the route's
 * schema and handler see it: see server/core/http/storable-text.ts. Runs after idempotency, as the
 * first step of input validation (the spec's order).
 */
import { assertStorableText } from '../../core/http/storable-text';
import { t } from '../init';

export const storableInput = t.middleware(async ({ getRawInput, next }) => {
  assertStorableText(await getRawInput());
  return next();
});
