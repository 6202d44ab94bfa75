/**
 * Which runner syncs which mailbox: a lease on the mailbox row (`lease_owner`, `lease_until`), taken
 * with one atomic UPDATE when it is free, expired or already ours, renewed by the holder's heartbeat,
 * given back on an orderly stop. A runner that dies stops renewing; its leases expire and the other
 * runners take them over (they scan for expired leases more often than they renew).
 *
 * Runners announce themselves in `runner_instances` (heartbeat) so each takes a fair share of the
 * active mailboxes: ceil(active / live runners).
 */
import { db } from '../core/db';
import { syncedProviders } from './adapters';

export interface LeaseTiming {
  /** How often a holder renews its leases and its runner heartbeat. */
  renewMs: number;
  /** A lease not renewed for this long is expired (2.5 renewals). */
  ttlMs: number;
  /** How often runners look for expired leases to take over (so a dead runner's are taken within ttl + this). */
  scanMs: number;
  /** A runner whose heartbeat is older than this is not counted as live (shorter than the lease: a dead runner's share goes back before its leases expire). */
  liveMs: number;
}

/**
 * The timing of a lease lasting `ttlSeconds` (MAIL_LEASE_SECONDS), every period in the same proportion
 * to it as the defaults (25 s: renewed every 10 s, scans every 5 s, a runner live for 20 s after its
 * heartbeat), so a shorter lease keeps its margins.
 */
export function leaseTimingFor(ttlSeconds: number): LeaseTiming {
  const ttlMs = ttlSeconds * 1000;
  return { ttlMs, renewMs: ttlMs * 0.4, scanMs: ttlMs * 0.2, liveMs: ttlMs * 0.8 };
}

export const leaseTiming: Readonly<LeaseTiming> = leaseTimingFor(25);

/** Statuses whose mailboxes are kept in sync (an `error` mailbox is retried with backoff). */
const syncedStatuses = ['active', 'error'];

/** Takes this mailbox's lease if it is free, expired or ours; true when we hold it now. */
export async function takeLease(mailboxId: string, owner: string, ttlMs: number = leaseTiming.ttlMs): Promise<boolean> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE mailboxes SET lease_owner = ${owner}, lease_until = now() + ${ttlMs} * interval '1 millisecond'
     WHERE id = ${mailboxId}::uuid AND status = ANY(${syncedStatuses}::text[]) AND provider = ANY(${syncedProviders}::text[])
       AND (lease_owner IS NULL OR lease_until IS NULL OR lease_until < now() OR lease_owner = ${owner})
    RETURNING id`;
  return rows.length > 0;
}

/**
 * Takes up to `limit` leases of synced mailboxes: expired ones (orphans of a dead runner) first, then
 * free ones. `freeLimit` bounds the free ones separately (the fair share), orphans are always taken
 * within `limit`.
 */
export async function takeLeases(owner: string, options: { freeLimit: number; orphanLimit: number; ttlMs?: number }): Promise<string[]> {
  const ttlMs = options.ttlMs ?? leaseTiming.ttlMs;
  const taken: string[] = [];
  if (options.orphanLimit > 0) {
    const rows = await db().$queryRaw<{ id: string }[]>`
      UPDATE mailboxes SET lease_owner = ${owner}, lease_until = now() + ${ttlMs} * interval '1 millisecond'
       WHERE id IN (
         SELECT id FROM mailboxes
          WHERE status = ANY(${syncedStatuses}::text[]) AND provider = ANY(${syncedProviders}::text[])
            AND lease_owner IS NOT NULL AND lease_owner <> ${owner} AND lease_until < now()
          ORDER BY lease_until LIMIT ${options.orphanLimit} FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    taken.push(...rows.map((row) => row.id));
  }
  if (options.freeLimit > 0) {
    const rows = await db().$queryRaw<{ id: string }[]>`
      UPDATE mailboxes SET lease_owner = ${owner}, lease_until = now() + ${ttlMs} * interval '1 millisecond'
       WHERE id IN (
         SELECT id FROM mailboxes
          WHERE status = ANY(${syncedStatuses}::text[]) AND provider = ANY(${syncedProviders}::text[])
            AND (lease_owner IS NULL OR lease_until IS NULL)
          ORDER BY created_at LIMIT ${options.freeLimit} FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    taken.push(...rows.map((row) => row.id));
  }
  return taken;
}

/** Renews our leases; returns the ids still ours and still synced (the others are to be dropped). */
export async function renewLeases(owner: string, mailboxIds: string[], ttlMs: number = leaseTiming.ttlMs): Promise<string[]> {
  if (mailboxIds.length === 0) return [];
  const rows = await db().$queryRaw<{ id: string }[]>`
    UPDATE mailboxes SET lease_until = now() + ${ttlMs} * interval '1 millisecond'
     WHERE id = ANY(${mailboxIds}::uuid[]) AND lease_owner = ${owner} AND status = ANY(${syncedStatuses}::text[])
    RETURNING id`;
  return rows.map((row) => row.id);
}

export async function releaseLeases(owner: string, mailboxIds?: string[]): Promise<void> {
  if (mailboxIds) {
    if (mailboxIds.length === 0) return;
    await db().$executeRaw`UPDATE mailboxes SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ${owner} AND id = ANY(${mailboxIds}::uuid[])`;
  } else {
    await db().$executeRaw`UPDATE mailboxes SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ${owner}`;
  }
}

/** Of these mailboxes, the ones another runner holds now: taken over while their holder stalled past its lease. */
export async function heldByOthers(owner: string, mailboxIds: string[]): Promise<string[]> {
  if (mailboxIds.length === 0) return [];
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM mailboxes WHERE id = ANY(${mailboxIds}::uuid[]) AND lease_owner IS NOT NULL AND lease_owner <> ${owner}`;
  return rows.map((row) => row.id);
}

/** The live holder of a mailbox's lease other than `owner`, if any. */
export async function otherLiveHolder(mailboxId: string, owner: string): Promise<string | null> {
  const rows = await db().$queryRaw<{ lease_owner: string | null }[]>`
    SELECT lease_owner FROM mailboxes WHERE id = ${mailboxId}::uuid AND lease_owner IS NOT NULL AND lease_owner <> ${owner} AND lease_until >= now()`;
  return rows[0]?.lease_owner ?? null;
}

export async function heartbeatRunner(runner: { id: string; hostname: string; pid: number }): Promise<void> {
  await db().runnerInstance.upsert({
    where: { id: runner.id },
    create: { id: runner.id, hostname: runner.hostname, pid: runner.pid },
    update: { heartbeatAt: new Date() },
  });
}

export async function removeRunner(id: string): Promise<void> {
  await db().runnerInstance.deleteMany({ where: { id } });
}

/** Live runners (including the caller once it has beaten) and the mailboxes to share among them. */
export async function fairShare(liveMs: number = leaseTiming.liveMs): Promise<{ live: number; active: number; share: number }> {
  const [row] = await db().$queryRaw<{ live: bigint; active: bigint }[]>`
    SELECT (SELECT count(*) FROM runner_instances WHERE heartbeat_at > now() - ${liveMs} * interval '1 millisecond') AS live,
           (SELECT count(*) FROM mailboxes WHERE status = ANY(${syncedStatuses}::text[]) AND provider = ANY(${syncedProviders}::text[])) AS active`;
  const live = Math.max(1, Number(row?.live ?? 1));
  const active = Number(row?.active ?? 0);
  return { live, active, share: Math.ceil(active / live) };
}

/** Runners other than `owner` whose heartbeat is fresh. */
export async function otherLiveRunners(owner: string, liveMs: number = leaseTiming.liveMs): Promise<number> {
  const [row] = await db().$queryRaw<{ live: bigint }[]>`
    SELECT count(*) AS live FROM runner_instances WHERE id <> ${owner} AND heartbeat_at > now() - ${liveMs} * interval '1 millisecond'`;
  return Number(row?.live ?? 0);
}

/** Runner rows not heard from for an hour (crashed runners never remove their own). */
export async function purgeDeadRunners(): Promise<void> {
  await db().$executeRaw`DELETE FROM runner_instances WHERE heartbeat_at < now() - interval '1 hour'`;
}
