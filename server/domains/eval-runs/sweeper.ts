/**
 * The evaluation runs' safety net, run with the engine sweeper: a queued or running evaluation with
 * no job that can still drive it (none, or one locked longer than a driver ever holds it: its runner
 * died) gets a new `eval.run` job. A driver holds a job for about 20 s and queues the next one before
 * it lets go, so a live evaluation always has a fresh job. Adding a key whose job is locked creates
 * another job; the driver's conditional updates make two drivers harmless.
 */
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { findOrphanedRuns } from './repo-drive';

const orphanSeconds = 90;

export async function sweepEvalRuns(limit = 100): Promise<number> {
  const rows = await findOrphanedRuns(orphanSeconds, limit);
  for (const row of rows) await enqueue('eval.run', { evalRunId: row.id }, { jobKey: jobKeys.evalRun(row.id) });
  return rows.length;
}
