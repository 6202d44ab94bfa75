/** Why a replay was refused, in the interface language: the refusal's reason, else the error's sentence. */
import type { Dictionary } from '@/app/i18n';
import { appErrorOf, describeError } from '@/app/lib/errors';

export function replayErrorText(error: unknown, t: Dictionary): string {
  const info = appErrorOf(error);
  const reason = info?.code === 'execution.not_replayable' ? info.details.reason : undefined;
  return (typeof reason === 'string' && Object.hasOwn(t.executions.replayRefusals, reason) && t.executions.replayRefusals[reason]) || describeError(error, t);
}
