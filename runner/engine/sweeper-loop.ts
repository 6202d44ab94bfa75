/**
 * The runner's engine sweeper loop (server/engine/run/sweeper.ts): every few seconds, executions cut
 * off by a dead runner, waits that ended and queued runs without a job are queued to advance; so are
 * evaluation runs left without a live job (server/domains/eval-runs/sweeper.ts).
 */
import { log } from '../../server/core/log';
import { sweepEveryMs, sweepExecutions } from '../../server/engine/run/sweeper';
import { sweepEvalRuns } from '../../server/domains/eval-runs';

export function startSweeperLoop(): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepExecutions()
      .then(() => sweepEvalRuns())
      .catch((error: unknown) => log.warn({ err: error }, 'execution sweep failed'))
      .finally(() => {
        running = false;
      });
  }, sweepEveryMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
