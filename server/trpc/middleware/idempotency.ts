/**
 * The one idempotency mechanism for every route flagged `idempotent` (REST transport; the UI does not
 * send keys). Runs after authorisation and before input validation, so a replay answers the first
 * status and body, including a first answer that was a 400.
 */
import { assertValidIdempotencyKey, claimIdempotencyKey, idempotencyKeyHeader, settleIdempotencyKey } from '../../core/http/idempotency-claim';
import { requestHashOf } from '../../core/http/idempotency-store';
import { envelopeOf } from '../errors';
import { t } from '../init';

export { idempotencyKeyHeader };

/** Thrown to make the REST adapter answer a stored response verbatim. */
export class IdempotentReplay extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

export const idempotency = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const spec = meta?.route;
  const key = ctx.headers.get(idempotencyKeyHeader);
  if (!spec?.idempotent || key === null || ctx.transport !== 'rest' || ctx.actor.kind === 'anonymous') return next();
  assertValidIdempotencyKey(key);

  const decision = await claimIdempotencyKey({
    memberId: ctx.actor.member.id,
    route: `${spec.method} ${spec.path}`,
    key,
    requestHash: requestHashOf(await getRawInput()),
  });
  if (decision.kind === 'replay') throw new IdempotentReplay(decision.status, decision.body);

  const result = await next();
  const { status, body } = result.ok
    ? { status: spec.status ?? 200, body: result.data }
    : envelopeOf(result.error);
  if ((await settleIdempotencyKey(decision.recordId, { status, body })) === 'unsupported') {
    ctx.responseHeaders.set('Idempotency-Replayed', 'unsupported');
  }
  return result;
});
