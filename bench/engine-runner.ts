/**
 * The engine bench's second way of running the engine (bench/engine.ts, BENCH_ENGINE_RUNNER=tasks, or
 * automatically when runner/main.ts stops taking jobs): graphile-worker `run()` in a child process with the
 * runner's real task list (runner/tasks) and the engine's sweeper loop, the runner's worker settings except
 * job completion and failure batching, which is off (`completeJobBatchDelay`/`failJobBatchDelay` -1: each job
 * is completed by its own statement, retried on deadlock, instead of one DELETE for a batch that graphile
 * cannot retry and answers by shutting the worker pool down). Prints `engine runner ready` once working.
 */
import { run } from 'graphile-worker';
import { databaseUrl } from '../server/core/config';
import { graphileLogger } from '../runner/graphile-logger';
import { startSweeperLoop } from '../runner/engine/sweeper-loop';
import { taskList } from '../runner/tasks';
import { composeEngine } from '../server/engine-adapters/compose';

composeEngine();
const batchDelay = Number(process.env.BENCH_ENGINE_BATCH_DELAY ?? '-1');
const runner = await run({
  connectionString: databaseUrl(),
  taskList,
  logger: graphileLogger,
  noHandleSignals: true,
  preset: { worker: { concurrentJobs: 10, localQueue: { size: 100 }, completeJobBatchDelay: batchDelay, failJobBatchDelay: batchDelay } },
});
const sweeper = startSweeperLoop();
console.log('engine runner ready');
const stop = () => {
  sweeper.stop();
  void runner.stop().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
await runner.promise;
