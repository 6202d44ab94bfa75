/**
 * The work of one leased mailbox in this runner: requests (delta, operations, resync, bodies, backfill) are
 * merged and run one at a time through the mailbox's session; an IMAP IDLE watch asks for a delta on
 * every change it sees; a timer polls (often when the provider offers no push, rarely otherwise, for
 * the folders IDLE does not watch); a failure closes the watch and retries everything after the
 * backoff; a backfill continues in budgets between deltas until it is done.
 *
 * A watch whose connection drops (a server restart, a cut connection), or a run that fails because
 * the server went away, does not wait for the failure backoff to watch again: the watch is reopened
 * after short delays (`watchReopenMs`), without recording failures, and once open it asks for a full
 * delta to catch up on what arrived meanwhile. Only when every reopen attempt failed does a run (which
 * records the failure and backs off) take over. Without this, the first reconnect hit a server still
 * starting, failed, and mail waited 30-90 s for the backoff with no watch open (issue 19 §5).
 */
import { config } from '../../server/core/config';
import { db } from '../../server/core/db';
import { log } from '../../server/core/log';
import type { WatchChange, WatchHandle } from '../../server/mail/provider';
import { classifySyncError } from '../../server/mail/sync-errors';
import { MailboxSession, type SessionOptions, type WorkRequest } from './session';

/** A counting semaphore: at most `size` holders at once, the others wait in order. */
export class Slots {
  private used = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async acquire(): Promise<() => void> {
    if (this.used >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter.
      if (next) next();
      else this.used -= 1;
    };
  }
}

export interface WorkerOptions {
  /** Shared with the other workers of the runner; none: unbounded. */
  slots?: Slots;
  session?: SessionOptions;
  /** Poll interval without push (IDLE not offered, or the watch is down). Default 60 s. */
  pollMs?: number;
  /** Poll interval while IDLE watches the inbox (a full delta, for what the folder looks cannot see). Default 5 min. */
  watchedPollMs?: number;
  /**
   * While watching, how often the watch looks at the other folders (one LIST-STATUS where offered) and
   * asks for a delta when one changed: mail filed into a folder by a server rule. Default 30 s; 0: never.
   */
  folderCheckMs?: number;
  /** Open IDLE watches. Default true. */
  watch?: boolean;
  /** Delay coalescing a burst of IDLE events into one delta. Default 50 ms. */
  debounceMs?: number;
  /**
   * Delays before each attempt to reopen a watch that dropped (or after a run failed because the
   * server was unreachable or timed out); after the last, a normal run takes over. Default
   * `watchReopenDelaysMs` (about 30 s in all).
   */
  watchReopenMs?: readonly number[];
  /**
   * The watch heartbeat (`mailboxes.watch_mode`, `watch_alive_at`, read by the health panel and the
   * watchdog) is written at most this often, unless the mode changed. Default MAIL_WATCH_HEARTBEAT_SECONDS.
   */
  heartbeatMs?: number;
  /** How often a silent IDLE watch proves its connection alive (a NOOP). Default: `heartbeatMs`. */
  aliveCheckMs?: number;
  /** How long that NOOP (or a folder look) may wait for its answer before the watch is declared dead. Default 20 s. */
  aliveTimeoutMs?: number;
}

/** How the worker watches for new mail, as recorded in `mailboxes.watch_mode`. */
export type WatchMode = 'idle' | 'polling' | 'provider_history';

/**
 * Reopen attempts of a dropped watch: at once, then densely over the first seconds (a restarting
 * server is usually back within two or three), backing off to 15 s (≈ 34 s in all).
 */
export const watchReopenDelaysMs: readonly number[] = [0, 500, 1_000, 1_000, 2_000, 2_000, 4_000, 8_000, 15_000];

/** A watch that lived this long before dropping starts its reopen attempts afresh. */
const watchSettledMs = 60_000;

/** Run failures after which reopening the watch is worth trying at once (the server may just be back). */
const reopenAfterFailure = new Set(['unreachable', 'timeout']);

const everything: Required<WorkRequest> = { delta: true, operations: true, resync: true, bodies: true, backfill: true };

export class MailboxWorker {
  private readonly session: MailboxSession;
  private readonly abort = new AbortController();
  private pending: WorkRequest = {};
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private watchHandle: WatchHandle | null = null;
  private watching = false;
  /** The watch being opened or open; a drop reported for an older one is ignored. */
  private watchGeneration = 0;
  private watchOpenedAt = 0;
  /** Reopen attempts made since the watch last settled. */
  private reopenAttempts = 0;
  private reopenTimer: NodeJS.Timeout | null = null;
  /** A reopen attempt is due, run by the loop between runs (the session is used by one thing at a time). */
  private reopenDue = false;
  private failing = false;
  private lastFailureKind: string | null = null;
  private stopped = false;
  /** Runs completed (tests wait on it). */
  runs = 0;
  /**
   * What woke this worker, counted (tests and diagnostics): inbox changes the IDLE watch reported,
   * other folders its looks found changed, and the timers that fired (the periodic poll, the retry
   * after a failed run).
   */
  readonly wakeups = { watchEvents: 0, folderChanges: 0, polls: 0, retries: 0 };
  /** A folder other than the inbox changed within the debounce window. */
  private debouncedFolders = false;
  /** The last heartbeat written (mode and time), so a burst of proofs writes once. */
  private beatMode: WatchMode | null = null;
  private beatAt = 0;

  constructor(
    readonly mailboxId: string,
    private readonly options: WorkerOptions,
    private readonly onGone: (mailboxId: string) => void,
  ) {
    this.session = new MailboxSession(mailboxId, options.session);
  }

  /** A newly held mailbox catches up on everything that may be waiting. */
  start(): void {
    this.request(everything);
  }

  request(work: WorkRequest): void {
    if (this.stopped) return;
    this.pending = {
      delta: this.pending.delta === true || work.delta === true ? true : this.pending.delta || work.delta,
      operations: this.pending.operations || work.operations,
      resync: this.pending.resync || work.resync,
      bodies: this.pending.bodies || work.bodies,
      backfill: this.pending.backfill || work.backfill,
    };
    this.kick();
  }

  private hasWork(): boolean {
    return Boolean(this.pending.delta || this.pending.operations || this.pending.resync || this.pending.bodies || this.pending.backfill);
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    if (!this.hasWork() && !this.reopenDue) return;
    this.running = this.loop()
      .catch((error: unknown) => {
        // The session records the provider's failures itself; what reaches here is ours (the
        // database unreachable while recording, a bug): log it and try everything again later.
        log.error({ mailboxId: this.mailboxId, err: error }, 'mailbox worker run failed');
        this.schedule(30_000, everything, 'retries');
      })
      .finally(() => {
        this.running = null;
        this.kick();
      });
  }

  private async loop(): Promise<void> {
    if (!this.hasWork()) {
      // Only a reopen of the watch is due.
      this.reopenDue = false;
      await this.reopenWatch();
      return;
    }
    // A run opens the watch itself afterwards (when it succeeds).
    this.reopenDue = false;
    const work = this.pending;
    this.pending = {};
    this.clearTimer();
    const release = await this.options.slots?.acquire();
    let result: Awaited<ReturnType<MailboxSession['run']>>;
    try {
      if (this.stopped) return;
      result = await this.session.run(work, this.abort.signal);
    } finally {
      release?.();
    }
    this.runs += 1;
    if (this.stopped) return;
    if (result.outcome === 'gone') {
      this.onGone(this.mailboxId);
      return;
    }
    if (result.outcome === 'failed') {
      this.failing = true;
      this.lastFailureKind = result.failure.kind;
      await this.closeWatch();
      log.warn({ mailboxId: this.mailboxId, kind: result.failure.kind, code: result.failure.code, retryInMs: result.retryInMs }, 'mailbox sync failed');
      this.schedule(result.retryInMs, everything, 'retries');
      // The server went away (a restart, a cut connection): it may be back in a second, long before
      // the backoff; the watch tries to reopen meanwhile and, once open, asks for the delta.
      if (reopenAfterFailure.has(result.failure.kind)) this.scheduleReopen();
      return;
    }
    this.failing = false;
    this.lastFailureKind = null;
    if (result.more.operations) this.pending.operations = true;
    // The body pass and a backfill continue after whatever else is waiting, one budget at a time.
    if (result.more.bodies) setImmediate(() => this.request({ bodies: true }));
    if (result.more.backfill) setImmediate(() => this.request({ backfill: true }));
    await this.ensureWatch();
    // Without an open watch, the successful run is what proves the mailbox watched (by its poll).
    if (!this.watching) this.beat('polling');
    this.schedule(this.watching ? (this.options.watchedPollMs ?? 300_000) : (this.options.pollMs ?? 60_000), { delta: true }, 'polls');
  }

  private schedule(delayMs: number, work: WorkRequest, kind: 'polls' | 'retries'): void {
    this.clearTimer();
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wakeups[kind] += 1;
      this.request(work);
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** After a successful run: opens the watch if none is open (once; a failure to open it schedules reopen attempts). */
  private async ensureWatch(): Promise<void> {
    if (this.watching || this.stopped || this.failing || this.options.watch === false) return;
    await this.openWatch();
  }

  /** A reopen attempt (from the loop, between runs). */
  private async reopenWatch(): Promise<void> {
    if (this.watching || this.stopped || this.options.watch === false) return;
    // Logins that fail are never retried early (an account can be locked out for them).
    if (this.lastFailureKind === 'auth') return;
    await this.openWatch();
  }

  /**
   * Opens the watch, then catches up once with a full delta: mail that reached the inbox before the
   * watch's SELECT raises no IDLE event (the watch counts it as already there), mail filed elsewhere
   * before its first look at the folders is in its baseline, and whatever came while no watch was
   * open would otherwise wait for the next poll (minutes while watching).
   */
  private async openWatch(): Promise<void> {
    this.watching = true;
    const generation = ++this.watchGeneration;
    let dropped = false;
    try {
      const handle = await this.session.watch(
        (change) => {
          if (generation === this.watchGeneration) this.onChange(change);
        },
        (error) => {
          dropped = true;
          if (generation !== this.watchGeneration) return;
          this.watchHandle = null;
          this.watching = false;
          if (this.stopped) return;
          log.info({ mailboxId: this.mailboxId, err: error instanceof Error ? error.message : String(error) }, 'mailbox watch ended');
          // A watch that had settled starts its reopen attempts afresh; one that keeps dropping
          // right after opening runs down the same attempts (so a flapping server is not hammered).
          if (this.watchOpenedAt > 0 && Date.now() - this.watchOpenedAt >= watchSettledMs) this.reopenAttempts = 0;
          this.scheduleReopen();
        },
        {
          folderCheckMs: this.options.folderCheckMs ?? 30_000,
          aliveCheckMs: this.options.aliveCheckMs ?? this.heartbeatMs,
          aliveTimeoutMs: this.options.aliveTimeoutMs,
          onAlive: () => {
            if (generation === this.watchGeneration) this.beat('idle');
          },
        },
      );
      if (this.stopped || dropped || generation !== this.watchGeneration) {
        // Stopped meanwhile, or the connection dropped while it opened (its end already scheduled a reopen).
        await handle?.close();
        if (generation === this.watchGeneration && !dropped) this.watching = false;
        return;
      }
      this.watchHandle = handle;
      this.watching = handle !== null;
      if (!this.watching) return;
      this.watchOpenedAt = Date.now();
      this.clearReopen();
      this.request({ delta: true });
    } catch (error) {
      if (generation === this.watchGeneration) this.watching = false;
      const { kind } = classifySyncError(error);
      log.info({ mailboxId: this.mailboxId, kind, err: error instanceof Error ? error.message : String(error) }, 'mailbox watch could not start');
      // A refused login or certificate is not retried early: the next run meets it and records it.
      if (kind !== 'auth' && kind !== 'tls') this.scheduleReopen();
    }
  }

  /**
   * The next reopen attempt after its delay. Once they are all spent the mailbox is polled as one
   * without push (a failed run already has its retry; each successful run tries the watch once more).
   */
  private scheduleReopen(): void {
    if (this.stopped || this.reopenTimer || this.options.watch === false || this.lastFailureKind === 'auth') return;
    const delays = this.options.watchReopenMs ?? watchReopenDelaysMs;
    if (this.reopenAttempts >= delays.length) {
      if (!this.failing) this.schedule(this.options.pollMs ?? 60_000, { delta: true }, 'polls');
      return;
    }
    const delay = delays[this.reopenAttempts]!;
    this.reopenAttempts += 1;
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = null;
      this.reopenDue = true;
      this.kick();
    }, delay);
    this.reopenTimer.unref();
  }

  private clearReopen(): void {
    if (this.reopenTimer) clearTimeout(this.reopenTimer);
    this.reopenTimer = null;
  }

  private onChange(change: WatchChange): void {
    if (change === 'folders') {
      this.wakeups.folderChanges += 1;
      this.debouncedFolders = true;
    } else {
      this.wakeups.watchEvents += 1;
    }
    if (this.debounce || this.stopped) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      // Another folder changed: the full delta (it reads only what moved in each folder).
      const delta = this.debouncedFolders ? true : 'inbox';
      this.debouncedFolders = false;
      this.request({ delta });
    }, this.options.debounceMs ?? 50);
  }

  private get heartbeatMs(): number {
    return this.options.heartbeatMs ?? config().MAIL_WATCH_HEARTBEAT_SECONDS * 1000;
  }

  /**
   * Records that the mailbox is watched (mode) and alive now, at most every `heartbeatMs` unless the
   * mode changed: a proof per IDLE event would be a write per message. A polled OAuth mailbox reads
   * its provider's history, hence `provider_history` for non-IMAP mailboxes.
   */
  private beat(mode: WatchMode): void {
    if (this.stopped) return;
    const now = Date.now();
    if (mode === this.beatMode && now - this.beatAt < this.heartbeatMs) return;
    this.beatMode = mode;
    this.beatAt = now;
    db()
      .$executeRaw`
        UPDATE mailboxes SET watch_mode = CASE WHEN ${mode} = 'polling' AND provider <> 'imap' THEN 'provider_history' ELSE ${mode} END,
          watch_alive_at = now()
         WHERE id = ${this.mailboxId}::uuid AND status <> 'disconnected'`
      .catch((error: unknown) => log.warn({ mailboxId: this.mailboxId, err: error }, 'mailbox watch heartbeat not written'));
  }

  /**
   * Drops the watch and the sync connection and starts again (the watchdog asks for it when a mailbox
   * looks stalled): a connection that stopped carrying bytes is replaced by a fresh one.
   */
  async rewatch(): Promise<void> {
    if (this.stopped) return;
    await this.closeWatch();
    this.clearReopen();
    this.reopenAttempts = 0;
    this.beatMode = null;
    await this.session.close();
    this.request(everything);
  }

  private async closeWatch(): Promise<void> {
    const handle = this.watchHandle;
    // A drop reported by the closing watch (or by one still opening) is ours, not the server's.
    this.watchGeneration += 1;
    this.watchHandle = null;
    this.watching = false;
    await handle?.close().catch(() => {});
  }

  /** Waits for the run in progress (bounded), closes the watch and the connection. */
  async stop(timeoutMs = 5_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    this.clearTimer();
    this.clearReopen();
    if (this.debounce) clearTimeout(this.debounce);
    await this.closeWatch();
    if (this.running) await Promise.race([this.running.catch(() => {}), new Promise((resolve) => setTimeout(resolve, timeoutMs).unref())]);
    await this.session.close();
  }

  /** Whether an IDLE watch is open (tests). */
  get watched(): boolean {
    return this.watchHandle !== null;
  }

  /** Resolves when no run is in progress or pending (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
  }
}
