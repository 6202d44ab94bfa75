/**
 * The web process's webhook intake (issue 25 §1, "a burst must not starve the runs"): WEBHOOK_CONCURRENCY calls
 * start runs at once (the workflow's look-up, the run's row and its job), up to WEBHOOK_QUEUE more wait their turn
 * in the process, and beyond, a call is refused at once with 503 `internal.busy`. Unlimited, a burst kept one
 * intake per sender running in PostgreSQL and took the CPU the runners need (bench/README.md, "A burst").
 *
 * The line is shared by every workflow, so one token's calls may hold at most a quarter of it: a flood on one
 * workflow delays another's calls by that much at most and never shuts them out of the line.
 */
import { BoundedGate, GateFullError } from '../core/bounded-gate';
import { config } from '../core/config';
import { busyError } from '../core/errors/app-error';

/** A refused call may try again this much later: the line drains in well under a second. */
const retryAfterSeconds = 1;

export class WebhookIntake {
  private readonly gate: BoundedGate;
  private readonly waitingByToken = new Map<string, number>();
  /** The most calls of one token waiting at once. */
  readonly perTokenWaiting: number;

  constructor(
    readonly concurrency: number,
    readonly queue: number,
  ) {
    this.gate = new BoundedGate(concurrency, queue);
    this.perTokenWaiting = Math.max(1, Math.floor(queue / 4));
  }

  /** Calls running and waiting now. */
  load() {
    return this.gate.load();
  }

  /**
   * Runs `task` in its turn, or refuses it (503 internal.busy) when the line, or the token's share of it, is full.
   * A call whose sender hangs up while it waits (`departure`) leaves the line without starting a run: a sender that
   * timed out retries, and the run its first call would start late would be a second one.
   */
  async run<T>(token: string, task: () => Promise<T>, departure?: AbortSignal): Promise<T> {
    // The gate decides synchronously, in call order: a call waits exactly when every slot is taken now.
    let waiting = this.gate.slotsTaken();
    if (waiting) {
      const ofToken = this.waitingByToken.get(token) ?? 0;
      if (ofToken >= this.perTokenWaiting) throw refused();
      this.waitingByToken.set(token, ofToken + 1);
    }
    const leaveLine = () => {
      if (!waiting) return;
      waiting = false;
      const left = (this.waitingByToken.get(token) ?? 1) - 1;
      if (left > 0) this.waitingByToken.set(token, left);
      else this.waitingByToken.delete(token);
    };
    try {
      return await this.gate.run(() => {
        leaveLine();
        return task();
      }, departure);
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
