/** The guard's limits, from the instance's settings (docs: SEND_CAP_* and SEND_GUARD_*). */
import { config } from '../../core/config';
import type { GuardLimits } from './rules';

export function guardLimits(): GuardLimits {
  const settings = config();
  return {
    mailboxPerHour: settings.SEND_CAP_MAILBOX_PER_HOUR,
    workflowPerHour: settings.SEND_CAP_WORKFLOW_PER_HOUR,
    loopWindowMinutes: settings.SEND_GUARD_LOOP_WINDOW_MINUTES,
    loopMaxSends: settings.SEND_GUARD_LOOP_MAX_SENDS,
    repeatMaxSends: settings.SEND_GUARD_REPEAT_MAX_SENDS,
  };
}
