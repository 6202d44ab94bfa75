import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { advanceExecution } from '../../server/engine/run/advance';
import { runnerIdentity } from '../runner-identity';
import { defineTask } from './define-task';

/** Advances one execution as far as it can go now (admission, steps, retries, resumes). */
export const executionAdvanceTask = defineTask('execution.advance', jobCatalogue['execution.advance'], async ({ executionId }) => {
  await advanceExecution(executionId, runnerIdentity());
});
