/**
 * The runner's support sync (tasks `support.sync`, queued by a member's write, and `support-sync-interval`, every
 * minute): one exchange with the control plane when the instance is linked, a no-op otherwise. What the exchange
 * leaves to do is queued at once (more items than one batch) or at the earliest retry when it comes before the
 * next interval; the job key `support-sync` keeps that to one pending job for the whole instance.
 *
 * No named graphile queue serialises the exchanges: a runner killed mid-exchange keeps its queue locked for hours
 * (graphile frees a dead worker's locks only after 4 hours), which would stop the support sync of the whole
 * instance. Two exchanges at once are safe instead: deliveries are idempotent by id, changes by operator id and
 * sequence, and a cursor moved back by a slower exchange only makes the next pull reread what is ignored.
 */
import { config } from '../../../core/config';
import { jobKeys } from '../../../core/jobs/catalogue';
import { enqueue } from '../../../core/jobs/enqueue';
import { log } from '../../../core/log';
import { createControlPlaneClient, type ControlPlaneClient, type ControlPlaneLink } from './client';
import { defaultSupportSyncStore } from './default-store';
import { controlPlaneLink } from './link';
import { runSupportSync, type SyncOutcome } from './run';
import type { SupportSyncStore } from './store';

export const SUPPORT_SYNC_JOB_KEY = jobKeys.supportSync();
/** The crontab's period: an exchange is due at least this often without any chaining. */
const cronPeriodMs = 60_000;

/** One client per link and process: its guarded connection pool is reused from one exchange to the next. */
let linkClient: { key: string; client: ControlPlaneClient } | null = null;

function clientFor(link: ControlPlaneLink): ControlPlaneClient {
  const key = JSON.stringify([link.url, link.instanceId, link.secret]);
  if (linkClient?.key !== key) linkClient = { key, client: createControlPlaneClient(link) };
  return linkClient.client;
}

export type SyncSupportOptions = {
  store?: SupportSyncStore | null;
  link?: ControlPlaneLink | null;
  client?: ControlPlaneClient;
  now?: () => Date;
  /** False: nothing is queued after the exchange (tests drive the exchanges themselves). */
  followUp?: boolean;
  /** The pull interval (default `SUPPORT_SYNC_INTERVAL_SECONDS`); below the crontab's minute, exchanges chain. */
  intervalMs?: number;
};

/** One exchange; null when the instance is not linked (or has no store). */
export async function syncSupport(options: SyncSupportOptions = {}): Promise<SyncOutcome | null> {
  const link = options.link === undefined ? controlPlaneLink() : options.link;
  if (!link) return null;
  const store = options.store === undefined ? defaultSupportSyncStore() : options.store;
  if (!store) {
    log.warn('support sync: the instance is linked but no support store is bound (server/domains/support/sync/default-store.ts)');
    return null;
  }
  const now = options.now ?? (() => new Date());
  const outcome = await runSupportSync({ store, client: options.client ?? clientFor(link), now, log });
  if (outcome.delivered > 0 || outcome.failed > 0 || outcome.applied > 0) {
    log.info({ delivered: outcome.delivered, failed: outcome.failed, applied: outcome.applied, synced: outcome.synced }, 'support sync: exchange done');
  }
  if (options.followUp !== false) {
    const runAt = outcome.more ? null : followUpAt(outcome.retryAt, now(), options.intervalMs ?? config().SUPPORT_SYNC_INTERVAL_SECONDS * 1000);
    if (outcome.more) await enqueue('support.sync', {}, { jobKey: SUPPORT_SYNC_JOB_KEY });
    // preserve_run_at: a member's write queued for now stays now.
    else if (runAt) await enqueue('support.sync', {}, { jobKey: SUPPORT_SYNC_JOB_KEY, jobKeyMode: 'preserve_run_at', runAt });
  }
  return outcome;
}

/**
 * When the next exchange should run, if before the crontab's next minute would run one: the earliest retry when it
 * comes sooner; the next pull when the interval is shorter than the crontab's minute (a chain the minute's tick
 * restarts if a runner dies holding it). Null: the crontab's minute is soon enough.
 */
export function followUpAt(retryAt: Date | null, now: Date, intervalMs: number): Date | null {
  const nextPull = intervalMs < cronPeriodMs ? new Date(now.getTime() + intervalMs) : null;
  const retry = retryAt && retryAt.getTime() < now.getTime() + cronPeriodMs ? retryAt : null;
  if (retry && nextPull) return retry < nextPull ? retry : nextPull;
  return retry ?? nextPull;
}
