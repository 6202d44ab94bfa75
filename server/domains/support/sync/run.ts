/**
 * One exchange with the operator's control plane (docs/support-protocol.md, "The exchange"): push the outbox, then
 * pull the changes since the cursor, then refresh the branding when it is old. Every piece of state is in the
 * store (the database), none in memory, so a crash or a restart at any point only repeats work the protocol makes
 * idempotent: a message delivered but not yet marked is delivered again under the same id and the operator answers
 * `duplicate`; changes applied with their cursor in one transaction are never applied twice, and a duplicate that
 * arrives anyway is ignored by the store.
 *
 * Order per thread: the store hands out a prefix of each thread's undelivered items; at the first failure of a
 * thread the rest of that thread waits for the next exchange, so a message never reaches the operator before its
 * thread or an earlier message. A failure that says the control plane itself is unreachable stops the push (the
 * other items would fail the same way and only count attempts).
 */
import { retryDelayMs } from './backoff';
import { ControlPlaneError, type ControlPlaneClient } from './client';
import type { SupportSyncStore } from './store';

export type SyncLogger = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
};

export type SyncDeps = {
  store: SupportSyncStore;
  client: ControlPlaneClient;
  now?: () => Date;
  random?: () => number;
  log?: SyncLogger;
  /** Outbox items per exchange (more wait for the next one, which is queued at once). Default 50. */
  batch?: number;
  /** Change pages per exchange. Default 10. */
  maxPages?: number;
  /** Branding older than this is fetched again. Default 10 minutes. */
  brandingMaxAgeMs?: number;
};

export type SyncOutcome = {
  delivered: number;
  failed: number;
  applied: number;
  changedThreadIds: string[];
  /** The pull went through: `syncedAt` was recorded. */
  synced: boolean;
  /** More outbox or changes than one exchange takes: run again now. */
  more: boolean;
  /** The earliest retry of an item that failed in this exchange (null: none). */
  retryAt: Date | null;
};

/** Kinds that mean "the control plane cannot be reached right now", whatever the item. */
const wholeLinkDown = new Set(['unreachable', 'timeout', 'refused_by_guard', 'unauthorized', 'redirect']);

const silent: SyncLogger = { info: () => {}, warn: () => {} };

export async function runSupportSync(deps: SyncDeps): Promise<SyncOutcome> {
  const now = deps.now ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const log = deps.log ?? silent;
  const batch = deps.batch ?? 50;
  const outcome: SyncOutcome = { delivered: 0, failed: 0, applied: 0, changedThreadIds: [], synced: false, more: false, retryAt: null };

  // 1. Push the outbox, in order per thread.
  const items = await deps.store.nextOutbox(batch, now());
  if (items.length === batch) outcome.more = true;
  const held = new Set<string>();
  let linkDown = false;
  for (const item of items) {
    if (held.has(item.threadId)) continue;
    try {
      await deps.client.deliver(item);
      await deps.store.markDelivered(item.itemId, now());
      outcome.delivered += 1;
    } catch (error) {
      const failure = describe(error);
      const attempts = item.attempts + 1;
      const nextAttemptAt = new Date(now().getTime() + retryDelayMs(attempts, random()));
      await deps.store.markFailed(item.itemId, { error: failure.text, nextAttemptAt });
      outcome.failed += 1;
      if (!outcome.retryAt || nextAttemptAt < outcome.retryAt) outcome.retryAt = nextAttemptAt;
      held.add(item.threadId);
      log.warn({ itemId: item.itemId, threadId: item.threadId, attempts, error: failure.text, nextAttemptAt }, 'support sync: an outbox item was not delivered');
      if (failure.linkDown) {
        linkDown = true;
        break;
      }
    }
  }
  if (linkDown) return outcome;

  // 2. Pull the changes since the cursor, one transaction per page (changes and cursor together).
  try {
    let { cursor } = await deps.store.linkState();
    const changed = new Set<string>();
    for (let page = 0; page < (deps.maxPages ?? 10); page += 1) {
      const answer = await deps.client.changes(cursor);
      if (answer.skipped > 0) log.info({ skipped: answer.skipped }, 'support sync: changes of types this version does not know were skipped');
      const at = now();
      if (answer.changes.length > 0 || answer.nextCursor !== cursor) {
        const result = await deps.store.applyChanges(answer.changes, answer.nextCursor, at);
        for (const id of result.changedThreadIds) changed.add(id);
        outcome.applied += answer.changes.length;
      } else {
        await deps.store.markSynced(at);
      }
      cursor = answer.nextCursor;
      outcome.synced = true;
      if (!answer.hasMore) break;
      if (page === (deps.maxPages ?? 10) - 1) outcome.more = true;
    }
    outcome.changedThreadIds = [...changed];
  } catch (error) {
    const failure = describe(error);
    log.warn({ error: failure.text }, 'support sync: changes could not be pulled');
    return outcome;
  }

  // 3. The branding, when old (a failure keeps the cached one).
  try {
    const cached = await deps.store.cachedBranding();
    const maxAge = deps.brandingMaxAgeMs ?? 10 * 60_000;
    if (!cached || now().getTime() - cached.fetchedAt.getTime() >= maxAge) {
      await deps.store.saveBranding(await deps.client.branding(), now());
    }
  } catch (error) {
    log.warn({ error: describe(error).text }, 'support sync: the branding could not be fetched');
  }
  return outcome;
}

/** What is kept of a failure: its kind and status, never a URL, header or body (the secret cannot be in it). */
function describe(error: unknown): { text: string; linkDown: boolean } {
  if (error instanceof ControlPlaneError) return { text: error.message, linkDown: wholeLinkDown.has(error.kind) };
  // A store failure is not the operator's: it is rethrown by the caller's job (graphile retries the job).
  throw error;
}
