/**
 * Authentication and authorisation, in the spec's order: cross-origin rule (403) → credential (401)
 * → rate limit (429, counted inside resolveActor) → route and scope (403). Routes without `route`
 * meta are refused: every procedure must declare its access rule.
 */
import { authorize, needsAuthentication } from '../../core/auth/access';
import { resolveActor } from '../../core/auth/authenticate';
import { appError } from '../../core/errors/app-error';
import { guardCrossOrigin } from '../../core/http/cross-origin-rule';
import { t } from '../init';

export const authenticate = t.middleware(async ({ ctx, meta, next }) => {
  const access = meta?.route?.access;
  if (!access) throw new Error('procedure without route meta: declare its access rule with route()');
  guardCrossOrigin(access, ctx.method, ctx.headers);
  if (!needsAuthentication(access)) return next();
  const actor = await resolveActor(ctx.headers, { figures: meta.route!.memberFigures });
  if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
  authorize(access, actor);
  return next({ ctx: { ...ctx, actor } });
});
