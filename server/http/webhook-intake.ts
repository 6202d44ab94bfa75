/**
 * The web process's webhook intake (issue 25 §1, "a burst must not starve the runs"): WEBHOOK_CONCURRENCY calls
 * start runs at once (the workflow's look-up, the run's row and its job), up to WEBHOOK_QUEUE more wait their turn
 * in the process, and beyond, a call is refused at once with 503 `internal.busy`. Unlimited, a burst kept one
 * intake per sender running in PostgreSQL and took the CPU the runners need (bench/README.md, "A burst").
 *
 * A workflow whose runs pile up gets half the intake: when a call's look-up finds at least as many of its runs queued
 * as it has slots (`noteBacklog`), the engine is not absorbing what the intake starts, and for the next second that
 * workflow's calls start at most half as many at once (they wait their turn for it). A workflow the engine keeps up
 * with gets the whole intake: its calls commit as they come, so the engine is fed at its pace rather than at what two
 * connections can write (bench/README.md, "The intake's width follows the backlog").
 *
 * The line is shared by every workflow, so one token's calls may hold at most a quarter of it: a flood on one
 * workflow delays another's calls by that much at most and never shuts them out of the line.
 */
import { BoundedGate, GateFullError } from '../core/bounded-gate';
import { config } from '../core/config';
import { busyError } from '../core/errors/app-error';

/** A refused call may try again this much later: the line drains in well under a second. */
const retryAfterSeconds = 1;
/** How long a workflow seen behind its backlog keeps half the intake when no look-up says otherwise. */
const behindForMs = 1000;
/** The most workflows remembered as behind; a look-up only records a token that names a workflow. */
export const maxBehindTracked = 10_000;

/** What a call's look-up saw of its workflow: runs queued (counted up to a bound) and the workflow's slots. */
export interface BacklogSeen {
  queued: number;
  slots: number;
}

export class WebhookIntake {
  private readonly gate: BoundedGate;
  /** Taken first by the calls of a workflow that is behind: half the intake's width. */
  private readonly behindGate: BoundedGate;
  private readonly waitingByToken = new Map<string, number>();
  private readonly behindUntil = new Map<string, number>();
  /** The most calls of one token waiting at once. */
  readonly perTokenWaiting: number;
  /** The most calls of workflows behind their backlog started at once. */
  readonly behindConcurrency: number;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    this.gate = new BoundedGate(concurrency, queue);
    this.behindConcurrency = Math.max(1, Math.floor(concurrency / 2));
    this.behindGate = new BoundedGate(this.behindConcurrency, queue);
    this.perTokenWaiting = Math.max(1, Math.floor(queue / 4));
  }

  /** Calls running and waiting now. */
  load() {
    const { running, waiting } = this.gate.load();
    return { running, waiting: waiting + this.behindGate.load().waiting };
  }

  /** Records what a call's look-up saw: at least as many runs queued as slots puts the workflow behind for a while. */
  noteBacklog(token: string, seen: BacklogSeen, now = Date.now()): void {
    // Deleted first either way: a refreshed mark is set again at the end of the insertion order.
    this.behindUntil.delete(token);
    if (seen.queued < seen.slots) return;
    this.behindUntil.set(token, now + behindForMs);
    // The oldest mark goes first (a Map iterates in insertion order).
    if (this.behindUntil.size > maxBehindTracked) this.behindUntil.delete(this.behindUntil.keys().next().value!);
  }

  /** Whether the token's workflow is behind its backlog now. */
  isBehind(token: string, now = Date.now()): boolean {
    const until = this.behindUntil.get(token);
    if (until === undefined) return false;
    if (until > now) return true;
    this.behindUntil.delete(token);
    return false;
  }

  /**
   * Runs `task` in its turn, or refuses it (503 internal.busy) when the line, or the token's share of it, is full.
   * A call whose sender hangs up while it waits (`departure`) leaves the line without starting a run: a sender that
   * timed out retries, and the run its first call would start late would be a second one.
   */
  async run<T>(token: string, task: () => Promise<T>, departure?: AbortSignal): Promise<T> {
    const behind = this.isBehind(token);
    // The gates decide synchronously, in call order: a call waits exactly when every slot it needs is taken now.
    let waiting = this.gate.slotsTaken() || (behind && this.behindGate.slotsTaken());
    if (waiting) {
      const ofToken = this.waitingByToken.get(token) ?? 0;
      if (ofToken >= this.perTokenWaiting || this.load().waiting >= this.queue) throw refused();
      this.waitingByToken.set(token, ofToken + 1);
    }
    const leaveLine = () => {
      if (!waiting) return;
      waiting = false;
      const left = (this.waitingByToken.get(token) ?? 1) - 1;
      if (left > 0) this.waitingByToken.set(token, left);
      else this.waitingByToken.delete(token);
    };
    const start = () =>
      this.gate.run(() => {
        leaveLine();
        return task();
      }, departure);
    try {
      // Behind: a place among the half first, then a slot of the whole, held until the call is done.
      return await (behind ? this.behindGate.run(start, departure) : start());
    } catch (error) {
      if (error instanceof GateFullError) throw refused();
      // Nobody reads this answer; the refusal is counted with the others for load (server/trpc/errors.ts).
      if (departure?.aborted && error === departure.reason) throw busyError(retryAfterSeconds, { reason: 'client_gone' });
      throw error;
    } finally {
      leaveLine();
    }
  }
}

const refused = () => busyError(retryAfterSeconds, { reason: 'intake' });

let intake: WebhookIntake | null = null;

/** The process's intake, from the configuration; a setting changed since (tests) makes a new one. */
export function webhookIntake(): WebhookIntake {
  const { WEBHOOK_CONCURRENCY, WEBHOOK_QUEUE } = config();
  if (intake?.concurrency !== WEBHOOK_CONCURRENCY || intake.queue !== WEBHOOK_QUEUE) intake = new WebhookIntake(WEBHOOK_CONCURRENCY, WEBHOOK_QUEUE);
  return intake;
}
