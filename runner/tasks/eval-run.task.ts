import { jobCatalogue, jobKeys } from '../../server/core/jobs/catalogue';
import { enqueue } from '../../server/core/jobs/enqueue';
import { driveEvalRun } from '../../server/domains/eval-runs';
import { defineTask } from './define-task';

/** Drives an evaluation run for a while; a fresh job (same key) continues while cases remain. */
export const evalRunTask = defineTask('eval.run', jobCatalogue['eval.run'], async ({ evalRunId }) => {
  if ((await driveEvalRun(evalRunId)) === 'again') await enqueue('eval.run', { evalRunId }, { jobKey: jobKeys.evalRun(evalRunId) });
});
