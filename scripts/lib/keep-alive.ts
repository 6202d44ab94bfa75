/**
 * `npm start` keeps its long-running children (the web server, the runner) alive: one that exits
 * without being asked to is started again after a delay that doubles with each crash in a row (1 s up
 * to 30 s, back to 1 s once an incarnation stayed up a minute), and every restart is logged with the
 * child's name, how it ended and the delay. A child that keeps crashing at start (5 times in a row,
 * each within 10 s of its start: a bad setting, a port taken, a broken build) is given up on, and the
 * caller stops everything.
 *
 * Pure of processes: `launch` starts one incarnation (scripts/lib/supervisor.ts in production, a fake
 * in the unit tests), `now` and `sleep` are injectable.
 */

export interface ChildExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The exit was asked for (a shutdown): never restarted. */
  expected: boolean;
}

export interface Incarnation {
  pid: number | undefined;
  exited: Promise<ChildExit>;
}

export interface RestartSettings {
  firstDelayMs: number;
  maxDelayMs: number;
  /** An incarnation up this long is healthy: the next crash starts the backoff afresh. */
  stableAfterMs: number;
  /** A crash this soon after the start counts as a crash at start. */
  quickCrashMs: number;
  /** Crashes at start in a row after which the child is given up on. */
  maxQuickCrashes: number;
}

export const defaultRestartSettings: RestartSettings = {
  firstDelayMs: 1_000,
  maxDelayMs: 30_000,
  stableAfterMs: 60_000,
  quickCrashMs: 10_000,
  maxQuickCrashes: 5,
};

export type RestartDecision = { restart: true; delayMs: number } | { restart: false; quickCrashes: number };

/** The backoff and give-up rule, crash after crash. */
export class RestartPolicy {
  private crashesInARow = 0;
  private quickCrashes = 0;

  constructor(private readonly settings: RestartSettings = defaultRestartSettings) {}

  /** An incarnation that was up `upMs` crashed: restart it after a delay, or give up. */
  crashed(upMs: number): RestartDecision {
    const { firstDelayMs, maxDelayMs, stableAfterMs, quickCrashMs, maxQuickCrashes } = this.settings;
    if (upMs >= stableAfterMs) this.crashesInARow = 0;
    this.quickCrashes = upMs < quickCrashMs ? this.quickCrashes + 1 : 0;
    if (this.quickCrashes >= maxQuickCrashes) return { restart: false, quickCrashes: this.quickCrashes };
    const delayMs = Math.min(firstDelayMs * 2 ** Math.min(this.crashesInARow, 30), maxDelayMs);
    this.crashesInARow += 1;
    return { restart: true, delayMs };
  }
}

export interface KeepAliveOptions {
  name: string;
  launch: () => Incarnation;
  log: (line: string) => void;
  /** The child keeps crashing at start: the caller stops everything. */
  onGiveUp: (exit: ChildExit) => void;
  settings?: RestartSettings;
  now?: () => number;
  /** Waits `ms`; resolves early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface KeepAlive {
  /** No restart from now on (a shutdown stops the running incarnation itself). */
  stop(): void;
  /** Ends when the child exited as asked, was given up on, or `stop` was called. */
  done: Promise<void>;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

function describeExit(exit: ChildExit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

export function keepAlive(options: KeepAliveOptions): KeepAlive {
  const { name, launch, log, onGiveUp } = options;
  const policy = new RestartPolicy(options.settings);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const stopped = new AbortController();
  const done = (async () => {
    for (let restarts = 0; ; restarts += 1) {
      const startedAt = now();
      const exit = await launch().exited;
      if (exit.expected || stopped.signal.aborted) return;
      const upMs = now() - startedAt;
      const decision = policy.crashed(upMs);
      if (!decision.restart) {
        log(`${name} exited unexpectedly (${describeExit(exit)}) ${decision.quickCrashes} times in a row within ${Math.round((options.settings ?? defaultRestartSettings).quickCrashMs / 1000)} s of its start; giving up`);
        onGiveUp(exit);
        return;
      }
      log(`${name} exited unexpectedly (${describeExit(exit)}) after ${(upMs / 1000).toFixed(1)} s; restarting it in ${(decision.delayMs / 1000).toFixed(0)} s (restart ${restarts + 1})`);
      await sleep(decision.delayMs, stopped.signal);
      if (stopped.signal.aborted) return;
    }
  })();
  return { stop: () => stopped.abort(), done };
}
