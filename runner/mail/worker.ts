/**
 * The work of one leased mailbox in this runner: requests (delta, operations, resync, backfill) are
 * merged and run one at a time through the mailbox's session; an IMAP IDLE watch asks for a delta on
 * every change it sees; a timer polls (often when the provider offers no push, rarely otherwise, for
 * the folders IDLE does not watch); a failure closes the watch and retries everything after the
 * backoff; a backfill continues in budgets between deltas until it is done.
 */
import { log } from '../../server/core/log';
import type { WatchHandle } from '../../server/core/mail/provider';
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
  /** Poll interval while IDLE watches the inbox (other folders). Default 5 min. */
  watchedPollMs?: number;
  /** Open IDLE watches. Default true. */
  watch?: boolean;
  /** Delay coalescing a burst of IDLE events into one delta. Default 50 ms. */
  debounceMs?: number;
}

const everything: Required<WorkRequest> = { delta: true, operations: true, resync: true, backfill: true };

export class MailboxWorker {
  private readonly session: MailboxSession;
  private readonly abort = new AbortController();
  private pending: WorkRequest = {};
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private watchHandle: WatchHandle | null = null;
  private watching = false;
  private failing = false;
  private stopped = false;
  /** Runs completed (tests wait on it). */
  runs = 0;
  /**
   * What woke this worker, counted (tests and diagnostics): changes the IDLE watch reported, and
   * the timers that fired (the periodic poll, the retry after a failed run).
   */
  readonly wakeups = { watchEvents: 0, polls: 0, retries: 0 };

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
      backfill: this.pending.backfill || work.backfill,
    };
    this.kick();
  }

  private kick(): void {
    if (this.running || this.stopped) return;
    if (!this.pending.delta && !this.pending.operations && !this.pending.resync && !this.pending.backfill) return;
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
      await this.closeWatch();
      log.warn({ mailboxId: this.mailboxId, kind: result.failure.kind, code: result.failure.code, retryInMs: result.retryInMs }, 'mailbox sync failed');
      this.schedule(result.retryInMs, everything, 'retries');
      return;
    }
    this.failing = false;
    if (result.more.operations) this.pending.operations = true;
    // A backfill continues after whatever else is waiting, one budget at a time.
    if (result.more.backfill) setImmediate(() => this.request({ backfill: true }));
    await this.ensureWatch();
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

  private async ensureWatch(): Promise<void> {
    if (this.watching || this.stopped || this.failing || this.options.watch === false) return;
    this.watching = true;
    try {
      const handle = await this.session.watch(
        () => this.onChange(),
        (error) => {
          this.watchHandle = null;
          this.watching = false;
          if (this.stopped) return;
          log.info({ mailboxId: this.mailboxId, err: error instanceof Error ? error.message : String(error) }, 'mailbox watch ended');
          // Catch up on what the watch may have missed, then watch again.
          this.request({ delta: true });
        },
      );
      if (this.stopped) {
        await handle?.close();
        return;
      }
      this.watchHandle = handle;
      this.watching = handle !== null;
      // Mail that reached the inbox between the run's look at it and the watch's SELECT raises no
      // IDLE event (the watch counts it as already there): catch up once now, else it would wait for
      // the next poll (minutes while watching).
      if (this.watching) this.request({ delta: 'inbox' });
    } catch (error) {
      this.watching = false;
      log.info({ mailboxId: this.mailboxId, err: error instanceof Error ? error.message : String(error) }, 'mailbox watch could not start');
    }
  }

  private onChange(): void {
    this.wakeups.watchEvents += 1;
    if (this.debounce || this.stopped) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.request({ delta: 'inbox' });
    }, this.options.debounceMs ?? 50);
  }

  private async closeWatch(): Promise<void> {
    const handle = this.watchHandle;
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
