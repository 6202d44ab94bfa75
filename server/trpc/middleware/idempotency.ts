/**
 * The one idempotency mechanism for every route flagged `idempotent` (REST transport; the UI does not
 * send keys). Runs after authorisation and before input validation, so a replay answers the first
 * status and body, including a first answer that was a 400.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { appError } from '../../core/errors/app-error';
import { claim, complete, release, requestHashOf } from '../../core/http/idempotency-store';
import { envelopeOf } from '../errors';
import { t } from '../init';

export const idempotencyKeyHeader = 'idempotency-key';

/** Thrown to make the REST adapter answer a stored response verbatim. */
export class IdempotentReplay extends Error {
  constructor(readonly status: number, readonly body: unknown) {
    super('idempotent replay');
    this.name = 'IdempotentReplay';
  }
}

const busyWaitMs = 10_000;
const busyPollMs = 100;

export const idempotency = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  const spec = meta?.route;
  const key = ctx.headers.get(idempotencyKeyHeader);
  if (!spec?.idempotent || key === null || ctx.transport !== 'rest' || ctx.actor.kind === 'anonymous') return next();
  if (key.length < 1 || key.length > 200) throw appError('idempotency.invalid_key');

  const scope = {
    memberId: ctx.actor.member.id,
    route: `${spec.method} ${spec.path}`,
    key,
    requestHash: requestHashOf(await getRawInput()),
  };
  let decision = await claim(scope);
  for (let waited = 0; decision.kind === 'busy' && waited < busyWaitMs; waited += busyPollMs) {
    await sleep(busyPollMs);
    decision = await claim(scope);
  }
  switch (decision.kind) {
    case 'reused':
      throw appError('idempotency.key_reused');
    case 'busy':
      throw appError('idempotency.in_progress');
    case 'replay':
      throw new IdempotentReplay(decision.status, decision.body);
    case 'execute':
      break;
  }

  const result = await next();
  const { status, body } = result.ok
    ? { status: spec.status ?? 200, body: result.data }
    : envelopeOf(result.error);
  if (status >= 500) {
    await release(decision.recordId);
  } else if (!(await complete(decision.recordId, status, body))) {
    ctx.responseHeaders.set('Idempotency-Replayed', 'unsupported');
  }
  return result;
});
