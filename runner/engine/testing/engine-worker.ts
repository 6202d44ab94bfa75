/**
 * The engine as the runner runs it, inside a test: a real graphile-worker with the advance task and
 * the sweeper, against the test database. `waitForExecution` polls until a run reaches a status.
 */
import { run, type Runner } from 'graphile-worker';
import { afterAll, beforeAll } from 'vitest';
import { db } from '../../../server/core/db';
import { composeEngine } from '../../../server/engine-adapters/compose';
import { sweepExecutions } from '../../../server/engine/run/sweeper';
import { useTestDatabase } from '../../../server/testing/test-database';
import { graphileLogger } from '../../graphile-logger';
import { executionAdvanceTask } from '../../tasks/execution-advance.task';

export interface EngineWorker {
  stop(): Promise<void>;
}

export async function startEngineWorker(connectionString: string, options: { concurrency?: number } = {}): Promise<EngineWorker> {
  composeEngine();
  const runner: Runner = await run({
    connectionString,
    taskList: { [executionAdvanceTask.name]: executionAdvanceTask.task },
    logger: graphileLogger,
    noHandleSignals: true,
    preset: { worker: { concurrentJobs: options.concurrency ?? 4, pollInterval: 100, completeJobBatchDelay: -1, failJobBatchDelay: -1 } },
  });
  let stopped = false;
  const sweeping = setInterval(() => {
    if (!stopped) void sweepExecutions().catch(() => {});
  }, 500);
  return {
    async stop() {
      stopped = true;
      clearInterval(sweeping);
      await runner.stop();
    },
  };
}

/**
 * The test file's database and an engine worker on it for the whole file (started before its tests,
 * stopped after them): the set-up every engine rule test shares. Answers the database's URL.
 */
export async function useEngineWorker(options: { concurrency?: number } = {}): Promise<string> {
  const databaseUrl = await useTestDatabase();
  let worker: EngineWorker | undefined;
  beforeAll(async () => {
    worker = await startEngineWorker(databaseUrl, options);
  });
  afterAll(async () => {
    await worker?.stop();
  });
  return databaseUrl;
}

const finalStatuses = ['succeeded', 'failed', 'cancelled'];

export async function waitForExecution(executionId: string, options: { statuses?: string[]; timeoutMs?: number } = {}) {
  const statuses = options.statuses ?? finalStatuses;
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const execution = await db().execution.findUniqueOrThrow({ where: { id: executionId }, include: { steps: { orderBy: { seq: 'asc' } } } });
    if (statuses.includes(execution.status)) return execution;
    if (Date.now() > deadline) throw new Error(`execution ${executionId} is ${execution.status}, not ${statuses.join('/')} after the wait`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
