/**
 * The procedure every route is built from: authenticate → authorise → per-member throttle (routes that
 * declare one) → idempotency → (the route's own 400 code, see bad-request-code.ts) → storable text,
 * then the route's own input validation and handler. Handlers read the caller with actorOf(ctx).
 */
import type { AuthenticatedActor } from '../core/auth/access';
import { appError } from '../core/errors/app-error';
import type { RequestContext } from './context';
import { t } from './init';
import { authenticate } from './middleware/authenticate';
import { badRequestCode } from './middleware/bad-request-code';
import { idempotency } from './middleware/idempotency';
import { storableInput } from './middleware/storable-input';
import { throttle } from './middleware/throttle';

export const router = t.router;

export const procedure = t.procedure.use(authenticate).use(throttle).use(idempotency).use(badRequestCode).use(storableInput);

/** The authenticated caller of a route whose access rule requires one. */
export function actorOf(ctx: RequestContext): AuthenticatedActor {
  if (ctx.actor.kind === 'anonymous') throw appError('auth.unauthenticated');
  return ctx.actor;
}
