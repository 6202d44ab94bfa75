import { jobCatalogue } from '../../server/core/jobs/catalogue';
import { runAnalysis } from '../analyzer/analyze';
import { defineTask } from './define-task';

/** Analyses a mailbox (runner/analyzer/): statistics, sender groups, the model's opportunities. */
export const analyzerRunTask = defineTask('analyzer.run', jobCatalogue['analyzer.run'], async ({ analysisId }) => {
  await runAnalysis(analysisId);
});
