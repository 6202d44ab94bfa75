/**
 * Where the cross-origin check (cross-origin.ts) applies, decided once for every transport (REST,
 * tRPC, plain routes): a state-changing request that is not Bearer-authenticated and whose route is
 * not authorised by a URL token. So public routes are covered too (sign-in and invitation accept
 * cannot be posted from another site: no login CSRF), while webhooks and approval links, which carry
 * a token and no cookie, are not. A request with an `Authorization` header is judged by its key alone.
 */
import type { Access } from '../auth/access';
import { config } from '../config';
import type { RequestHeaders } from './client-headers';
import { assertSameOrigin, isStateChanging } from './cross-origin';

export function guardCrossOrigin(access: Access, method: string, headers: RequestHeaders): void {
  if (!isStateChanging(method) || access.kind === 'urlToken' || headers.has('authorization')) return;
  assertSameOrigin(headers, config().PUBLIC_URL ?? null);
}
