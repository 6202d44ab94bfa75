/**
 * The runner's send sweeper loop (server/domains/outbound/send/sweeper.ts),
 * with this runner's heartbeat in `runner_instances`
 * under the id its sends are claimed with (`runnerIdentity()`), so the sweepers of other runners can
 * tell a live sender from a dead one even in a process without the mail supervisor.
 */
import { hostname } from 'node:os';
import { log } from '../../server/core/log';
import { heartbeatRunner } from '../../server/mail/lease';
import { sendSweepTiming, sweepSends } from '../../server/domains/outbound';

/** Heartbeats well inside the liveness window (leaseTiming.liveMs, 20 s). */
const heartbeatEveryMs = 5_000;

export function startSendSweeperLoop(runnerId: string, options: { everyMs?: number } = {}): { stop(): void; ready: Promise<void> } {
  let sweeping = false;
  const beat = () => heartbeatRunner({ id: runnerId, hostname: hostname(), pid: process.pid });
  const ready = beat().catch((error: unknown) => log.warn({ err: error }, 'runner heartbeat failed'));
  const heartbeat = setInterval(() => {
    void beat().catch((error: unknown) => log.warn({ err: error }, 'runner heartbeat failed'));
  }, heartbeatEveryMs);
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    sweepSends()
      .catch((error: unknown) => log.warn({ err: error }, 'send sweep failed'))
      .finally(() => {
        sweeping = false;
      });
  }, options.everyMs ?? sendSweepTiming.everyMs);
  heartbeat.unref();
  timer.unref();
  return {
    ready,
    stop: () => {
      clearInterval(timer);
      clearInterval(heartbeat);
    },
  };
}
