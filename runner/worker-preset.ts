/**
 * graphile-worker's settings for the runner process (runner/main.ts).
 *
 * 20 jobs at once: an engine step mostly waits on PostgreSQL or a service (bench: 86 runs/s against
 * 53 with 10). The local queue fetches jobs ahead (measured: ≈ 17,000 trivial jobs/s against ≈ 2,700
 * with the defaults). Completions are NOT batched: a batch deleting several job rows deadlocks with a
 * transaction re-keying two of them (the engine queues executions in its own transactions), and
 * graphile-worker treats a failed completion as fatal.
 *
 * graphile's own pool (job fetch, completion, LISTEN; Prisma has a separate one) is sized to the
 * concurrency plus the listener and the cron, so 20 jobs never queue for a connection; graphile warns
 * at every start when it is smaller. The pool is lazy: idle instances open few connections.
 */
export const runnerConcurrency = 20;
/** graphile's pool: the concurrency plus the listener and the cron (runner/main.ts makes it, keeping its connections). */
export const runnerPoolSize = runnerConcurrency + 2;

export const runnerWorkerPreset = {
  worker: {
    concurrentJobs: runnerConcurrency,
    maxPoolSize: runnerPoolSize,
    localQueue: { size: 100 },
    completeJobBatchDelay: -1,
    failJobBatchDelay: -1,
  },
} satisfies GraphileConfig.Preset;
