/**
 * The per-member throttle a route declares in its metadata (`throttle`), counted once the caller is
 * authorised (a key without the scope spends nothing) and before idempotency, so a 429 is never stored
 * as the answer of an Idempotency-Key.
 */
import { throttleMember } from '../../core/http/member-throttles';
import { t } from '../init';

export const throttle = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const declared = meta?.route?.throttle;
  if (!declared || ctx.actor.kind === 'anonymous') return next();
  if (declared.counts && !declared.counts(await getRawInput())) return next();
  await throttleMember(declared.bucket, ctx.actor.member.id);
  return next();
});
