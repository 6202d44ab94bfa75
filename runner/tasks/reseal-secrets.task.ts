import { resealSecrets } from '../../server/core/crypto/reseal';
import { housekeepingPayload, housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { defineTask } from './define-task';

export const resealSecretsTask = defineTask(housekeepingTaskNames.resealSecrets, housekeepingPayload, async (_payload, { logger }) => {
  const { resealed, unreadable } = await resealSecrets();
  if (resealed > 0) logger.info(`re-sealed ${resealed} secrets under the current instance key`);
  // Values no configured key opens: the operator dropped a previous key too early. Say so, never what they hold.
  if (unreadable > 0) logger.error(`${unreadable} stored secrets open under no configured key (check ENCRYPTION_KEYS_PREVIOUS)`);
});
