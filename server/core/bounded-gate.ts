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
   */
  run<T>(task: () => Promise<T>): Promise<T> {
    if (!this.slotsTaken()) {
      this.running += 1;
      return this.execute(task);
    }
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(new GateFullError());
    // The finishing task hands its slot straight to the first waiter (running stays the same).
    return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.execute(task));
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
