/**
 * The engine's feed in the throughput rounds (bench/engine.ts): runs started as the webhook starts one
 * (`startAloneStatement`: the row and its job in one prepared statement), a batch in one transaction of the bench's
 * own connection, as the floor's feed adds its chains' first jobs with `add_job`. Until 2026-12-06 the feed went
 * through `startExecution` in a Prisma transaction (a workflow read, the row, the job: three statements planned each
 * time per run, and Prisma's engine in the bench's process), which left the engine's closed loop with fewer runs in
 * flight than the floor's (bench/README.md, "The engine fed as the floor is").
 */
import type pg from 'pg';

export interface EngineFeedRun {
  memberId: string;
  workflowId: string;
  versionId: string;
}

/** Starts `count` runs of the workflow in one transaction on `client`. */
export async function createEngineFeed(client: pg.Client): Promise<(run: EngineFeedRun, count: number) => Promise<void>> {
  const { aloneStartValues, startAloneStatement } = await import('../server/engine/run/start');
  const { effectiveLimits } = await import('../server/engine/contract/limits');
  // The bench's workflow keeps the default run timeout, which is what a start reads from it.
  const timeoutMs = effectiveLimits({ maxConcurrency: null, executionTimeoutMs: null }).executionTimeoutMs;
  return async ({ memberId, workflowId, versionId }, count) => {
    await client.query('BEGIN');
    try {
      for (let index = 0; index < count; index += 1) {
        const { values } = aloneStartValues({
          memberId,
          workflowId,
          workflowVersionId: versionId,
          trigger: { type: 'webhook', nodeId: 'start', data: { index, amount: index % 100 } },
          timeoutMs,
          serialKey: null,
        });
        await client.query({ name: 'bench-start-run', text: startAloneStatement.text, values });
      }
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  };
}
