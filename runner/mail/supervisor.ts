/**
 * The mail side of a runner process: it announces the runner (heartbeat), holds leases on its fair
 * share of the active mailboxes (ceil(active / live runners)), takes over expired leases of runners
 * that died, and keeps one worker (./worker.ts: session, IDLE watch, polling, backoff) per mailbox
 * it holds. Jobs for a mailbox another live runner holds are handed over by a PostgreSQL
 * notification; the work itself is durable in the database (pending operations, the backfill status,
 * the resync window), so a handover lost with its runner is picked up by the next holder.
 *
 * A runner that finds its mailboxes taken over (it stalled past its leases: a blocked event loop, a
 * starved machine) sits out before it takes any again: no heartbeat, so the others count it out of
 * the share and keep what they took, and no lease, for twice the lease at first, doubling with each
 * take-over within the hour, up to 10 minutes. Without it a runner that stalls again and again had its
 * mailboxes taken, given back at the next even-out and taken again, each move a new connection and
 * a catch-up sync. It sits out only while another runner is live (otherwise nobody would sync).
 *
 * Joins the runner's orderly shutdown: `stop()` ends the workers (bounded wait), gives the leases back
 * and removes the runner's row, so the other runners take the mailboxes at their next scan.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import pg from 'pg';
import { databaseUrl } from '../../server/core/config';
import { db } from '../../server/core/db';
import { log } from '../../server/core/log';
import {
  fairShare,
  heartbeatRunner,
  heldByOthers,
  leaseTiming,
  otherLiveHolder,
  otherLiveRunners,
  purgeDeadRunners,
  releaseLeases,
  removeRunner,
  renewLeases,
  takeLease,
  takeLeases,
} from '../../server/mail/lease';
import type { WorkRequest } from './session';
import { MailboxWorker, Slots, type WorkerOptions } from './worker';

/** The notification channel runners hand mailbox work over on. */
export const mailWorkChannel = 'mailflow_mail_work';

/** `rewatch`: the watchdog found the mailbox stalled; its holder drops the watch and the connection and starts again. */
export type HandedWork = WorkRequest & { release?: boolean; rewatch?: boolean };

export interface SupervisorOptions extends WorkerOptions {
  owner?: string;
  renewMs?: number;
  ttlMs?: number;
  scanMs?: number;
  liveMs?: number;
  /** Listen for handed-over work (default true). */
  listen?: boolean;
  /** Mailbox runs at once in this runner (default 4); IDLE watches are not counted. */
  concurrentRuns?: number;
}

/** The longest a runner sits out after its mailboxes were taken over. */
const sitOutMaxMs = 10 * 60_000;
/** Take-overs further apart than this start the doubling again. */
const takeOverMemoryMs = 60 * 60_000;

export class MailSupervisor {
  readonly owner: string;
  /** Until when this runner sits out (after a take-over of its mailboxes); 0: it takes part. */
  private sitOutUntil = 0;
  /** Take-overs of this runner's mailboxes in a row (each within `takeOverMemoryMs` of the last). */
  private takeOvers = 0;
  private lastTakeOverAt = 0;
  private readonly workers = new Map<string, MailboxWorker>();
  /** Sync runs at once in this process (connections and database transactions are bounded). */
  private readonly slots: Slots;
  private scanTimer: NodeJS.Timeout | null = null;
  private lastRenew = 0;
  private listener: pg.Client | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: SupervisorOptions = {}) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.slots = new Slots(options.concurrentRuns ?? 4);
  }

  private get timing() {
    return {
      renewMs: this.options.renewMs ?? leaseTiming.renewMs,
      ttlMs: this.options.ttlMs ?? leaseTiming.ttlMs,
      scanMs: this.options.scanMs ?? leaseTiming.scanMs,
      liveMs: this.options.liveMs ?? leaseTiming.liveMs,
    };
  }

  async start(): Promise<void> {
    await heartbeatRunner({ id: this.owner, hostname: hostname(), pid: process.pid });
    await purgeDeadRunners();
    if (this.options.listen !== false) await this.listen();
    await this.tick();
    this.schedule();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.scanTimer = setTimeout(() => {
      this.ticking = this.tick()
        .catch((error: unknown) => log.error({ err: error }, 'mail supervisor tick failed'))
        .finally(() => {
          this.ticking = null;
          this.schedule();
        });
    }, Math.max(this.timing.scanMs, this.stalledUntil - Date.now()));
    this.scanTimer.unref();
  }

  /** Tests: until when `stallForTests` holds the ticks back. */
  private stalledUntil = 0;

  /**
   * Simulates a stalled runner (tests): no heartbeat, renewal or share for `ms`, as when its event loop is
   * blocked; its workers are left as they are (an idle worker writes nothing meanwhile).
   */
  async stallForTests(ms: number): Promise<void> {
    this.stalledUntil = Date.now() + ms;
    if (this.scanTimer) clearTimeout(this.scanTimer);
    await this.ticking;
    if (this.scanTimer) clearTimeout(this.scanTimer);
    this.schedule();
  }

  /** Heartbeat and renewals (every renewMs), then the share: orphans taken, free leases up to the share, extras released. */
  async tick(): Promise<void> {
    if (this.stopped) return;
    const { renewMs, ttlMs, liveMs } = this.timing;
    if (Date.now() - this.lastRenew >= renewMs) {
      this.lastRenew = Date.now();
      const held = [...this.workers.keys()];
      const kept = new Set(await renewLeases(this.owner, held, ttlMs));
      // Disconnected meanwhile (or, after a stall, taken by another runner: then the release matches nothing).
      const lost = held.filter((id) => !kept.has(id));
      for (const id of lost) await this.drop(id, true);
      if ((await heldByOthers(this.owner, lost)).length > 0) this.beginSitOut(ttlMs);
      // After the take-over is known: a heartbeat would count this runner live again for the others,
      // which would give mailboxes back to a share nobody takes while it sits out.
      if (!this.sittingOut()) await heartbeatRunner({ id: this.owner, hostname: hostname(), pid: process.pid });
    }
    if (this.sittingOut()) {
      // Nobody else to sync them: back at once.
      if ((await otherLiveRunners(this.owner, liveMs)) > 0) return;
      this.sitOutUntil = 0;
      await heartbeatRunner({ id: this.owner, hostname: hostname(), pid: process.pid });
    }
    const { share } = await fairShare(liveMs);
    const held = this.workers.size;
    // Orphans (expired leases of a dead runner) are taken at once, whatever the share: they would
    // otherwise wait unsynced; the share evens out afterwards.
    const taken = await takeLeases(this.owner, { orphanLimit: 50, freeLimit: Math.max(0, share - held), ttlMs });
    for (const id of taken) this.adopt(id);
    // Above the share (a runner joined, or a job made us adopt one): give the newest back; runners
    // under their share take it (never us: we are at our share).
    const extra = this.workers.size - share;
    if (extra > 0) {
      const newest = [...this.workers.keys()].slice(-extra);
      for (const id of newest) await this.drop(id, true);
    }
  }

  private sittingOut(): boolean {
    return Date.now() < this.sitOutUntil;
  }

  /** Whether this runner is sitting out after a take-over, until when and for how long in all. */
  get sittingOutFor(): { until: Date; ms: number } | null {
    return this.sittingOut() ? { until: new Date(this.sitOutUntil), ms: this.sitOutMs } : null;
  }

  private sitOutMs = 0;

  private beginSitOut(ttlMs: number): void {
    // Workers and the renewal may each find the same take-over: one sit-out for it.
    if (this.sittingOut()) return;
    const now = Date.now();
    this.takeOvers = now - this.lastTakeOverAt <= takeOverMemoryMs ? this.takeOvers + 1 : 1;
    this.lastTakeOverAt = now;
    this.sitOutMs = Math.min(sitOutMaxMs, 2 * ttlMs * 2 ** (this.takeOvers - 1));
    this.sitOutUntil = now + this.sitOutMs;
    log.warn({ owner: this.owner, sitOutMs: this.sitOutMs, takeOvers: this.takeOvers }, 'mailboxes of this runner were taken over while it stalled; it sits out before taking any again');
  }

  private adopt(mailboxId: string): MailboxWorker {
    const existing = this.workers.get(mailboxId);
    if (existing) return existing;
    // The worker's writes are fenced by this runner's lease (server/mail/mirror/writer.ts).
    const worker = new MailboxWorker(mailboxId, { ...this.options, slots: this.slots, session: { ...this.options.session, leaseOwner: this.owner } }, (id) => this.goneLater(id));
    this.workers.set(mailboxId, worker);
    worker.start();
    return worker;
  }

  private async drop(mailboxId: string, release: boolean): Promise<void> {
    const worker = this.workers.get(mailboxId);
    this.workers.delete(mailboxId);
    await worker?.stop();
    if (release) await releaseLeases(this.owner, [mailboxId]);
  }

  /**
   * A worker found its mailbox gone: disconnected, or its lease taken over while this runner stalled (its
   * write was fenced before the renewal noticed). The latter is a take-over like the renewal's.
   */
  private goneLater(mailboxId: string): void {
    (async () => {
      await this.drop(mailboxId, true);
      if ((await heldByOthers(this.owner, [mailboxId])).length > 0) this.beginSitOut(this.timing.ttlMs);
    })().catch((error: unknown) => log.warn({ mailboxId, err: error }, 'dropping a mailbox worker failed'));
  }

  /** Drops a worker from an event handler; a failure to give the lease back only costs its expiry. */
  private dropLater(mailboxId: string): void {
    this.drop(mailboxId, true).catch((error: unknown) => log.warn({ mailboxId, err: error }, 'dropping a mailbox worker failed'));
  }

  holds(mailboxId: string): boolean {
    return this.workers.has(mailboxId);
  }

  worker(mailboxId: string): MailboxWorker | undefined {
    return this.workers.get(mailboxId);
  }

  /**
   * Work asked for by a job: done here when we hold (or can take) the mailbox's lease, otherwise
   * handed to the live holder.
   */
  async dispatch(mailboxId: string, work: HandedWork): Promise<'local' | 'handed-over' | 'released'> {
    if (work.release) {
      if (this.workers.has(mailboxId)) await this.drop(mailboxId, true);
      await notifyWork(mailboxId, work);
      return 'released';
    }
    const local = this.workers.get(mailboxId);
    if (local) {
      if (work.rewatch) void local.rewatch().catch((error: unknown) => log.warn({ mailboxId, err: error }, 'restarting a mailbox watch failed'));
      else local.request(work);
      return 'local';
    }
    // Nobody here holds it: only its holder can restart its watch.
    if (work.rewatch) {
      await notifyWork(mailboxId, work);
      return 'handed-over';
    }
    // Sitting out: the work goes to the holder (or waits, durable, for the runner that takes the lease).
    if (!this.sittingOut() && (await takeLease(mailboxId, this.owner, this.timing.ttlMs))) {
      this.adopt(mailboxId);
      return 'local';
    }
    await notifyWork(mailboxId, work);
    return 'handed-over';
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl() });
    client.on('error', (error) => log.warn({ message: error.message }, 'mail work listener lost'));
    client.on('notification', (message) => {
      if (message.channel !== mailWorkChannel || !message.payload) return;
      let parsed: { mailboxId?: unknown; work?: HandedWork };
      try {
        parsed = JSON.parse(message.payload) as typeof parsed;
      } catch {
        return;
      }
      if (typeof parsed.mailboxId !== 'string' || !parsed.work) return;
      const worker = this.workers.get(parsed.mailboxId);
      if (!worker) return;
      if (parsed.work.release) this.dropLater(parsed.mailboxId);
      else if (parsed.work.rewatch) void worker.rewatch().catch((error: unknown) => log.warn({ err: error }, 'restarting a mailbox watch failed'));
      else worker.request(parsed.work);
    });
    await client.connect();
    await client.query(`LISTEN ${mailWorkChannel}`);
    this.listener = client;
  }

  private stopping: Promise<void> | null = null;

  /** Stops every worker, gives the leases back and leaves (every caller waits for the same stop). */
  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    this.stopped = true;
    if (this.scanTimer) clearTimeout(this.scanTimer);
    await this.ticking;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
    this.workers.clear();
    await releaseLeases(this.owner).catch((error: unknown) => log.warn({ err: error }, 'releasing mailbox leases failed'));
    await removeRunner(this.owner).catch(() => {});
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  /**
   * Simulates a dead runner (tests): timers and workers stop, nothing is released or removed, so
   * the leases expire like a crashed process's.
   */
  async abandon(): Promise<void> {
    this.stopped = true;
    if (this.scanTimer) clearTimeout(this.scanTimer);
    await this.ticking;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
    this.workers.clear();
    await this.listener?.end().catch(() => {});
  }
}

export async function notifyWork(mailboxId: string, work: HandedWork): Promise<void> {
  await db().$executeRaw`SELECT pg_notify(${mailWorkChannel}, ${JSON.stringify({ mailboxId, work })})`;
}

/** Whether a live runner other than `owner` holds the mailbox. */
export { otherLiveHolder };
