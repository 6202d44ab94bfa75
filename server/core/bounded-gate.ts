/**
 * A semaphore with a bounded waiting line: at most `concurrency` tasks run at once, at most
 * `maxWaiting` wait for a slot, and anything beyond is refused at once (GateFullError) rather than
 * queued without bound. Process-local; pure apart from the tasks it runs.
 */
export class GateFullError extends Error {
  constructor() {
    super('gate full');
    this.name = 'GateFullError';
  }
}

/** The error a task given up by its caller is refused with: the signal's reason (an abort without one: AbortError). */
const abortReasonOf = (signal: AbortSignal): Error => (signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));

export class BoundedGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Tasks running and waiting now. */
  load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Whether a task given to `run` now would wait for a slot (or be refused, when the line is full too). */
  slotsTaken(): boolean {
    return this.running >= this.concurrency;
  }

  /**
   * Runs `task` once a slot is free. The admission decision is taken synchronously, when `run` is
   * called, so a burst of callers is sorted into running, waiting and refused in call order.
   *
   * `signal`: the caller no longer wants the task (its client left). Already aborted, the task is refused at once
   * (with the signal's reason); aborted while the task waits, it leaves the line and never runs. A task that
   * started runs to its end.
   */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortReasonOf(signal));
    if (!this.slotsTaken()) {
      this.running += 1;
      return this.execute(task);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new GateFullError());
    // The finishing task hands its slot straight to the first waiter (running stays the same).
    const turn = new Promise<void>((resolve, reject) => {
      const takeTurn = () => {
        signal?.removeEventListener('abort', leaveLine);
        resolve();
      };
      const leaveLine = () => {
        const place = this.waiting.indexOf(takeTurn);
        // Not in the line any more: its turn came first (takeTurn removed this listener as it was called).
        if (place < 0) return;
        this.waiting.splice(place, 1);
        reject(abortReasonOf(signal!));
      };
      this.waiting.push(takeTurn);
      signal?.addEventListener('abort', leaveLine, { once: true });
    });
    return turn.then(() => this.execute(task));
  }

  private async execute<T>(task: () => Promise<T>): Promise<T> {
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
