/**
 * What a run's end triggers in the domains, as the engine's run-end hooks (server/engine/composition.ts
 * RunEndHooks), listed in the order the engine called them inline before (run/finish.ts, run/cancel.ts):
 * - closed (succeeded or failed): an approval still pending can no longer be decided (`run_ended`);
 * - failed (a live run, not in a loop): the member's `execution.failed` notification, after the incident;
 * - cancelled: the runs' pending approvals end too (expired, reason `cancelled`).
 * Each runs in the engine's transaction, as the inline calls did.
 */
import type { RunEndHooks } from '../engine';
import { expireApprovalsOfCancelledRuns, expireApprovalsOfEndedRuns } from '../domains/approvals/engine-api';
import { notify } from '../domains/notifications/engine-api';

export const runEndHooks: RunEndHooks = {
  runClosed: [
    async (tx, executionId) => {
      await expireApprovalsOfEndedRuns([executionId], 'run_ended', tx);
    },
  ],
  runFailed: [
    async (tx, failure) => {
      await notify(
        {
          memberId: failure.memberId,
          kind: 'execution.failed',
          severity: 'error',
          params: { workflowId: failure.workflowId, workflowName: failure.workflowName, executionId: failure.executionId, errorSummary: failure.errorSummary },
          link: `/executions/${failure.executionId}`,
        },
        tx,
      );
    },
  ],
  runsCancelled: [
    async (tx, executionIds) => {
      await expireApprovalsOfCancelledRuns(executionIds, tx);
    },
  ],
};
