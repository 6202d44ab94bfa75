import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { runAnalysis } from '../../server/domains/analyzer';
import { defineTask } from './define-task';

/** Analyses a mailbox (server/domains/analyzer/run/): statistics, sender groups, the model's opportunities. */
export const analyzerRunTask = defineTask('analyzer.run', jobCatalogue['analyzer.run'], async ({ analysisId }) => {
  await runAnalysis(analysisId);
});
