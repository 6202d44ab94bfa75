/**
 * Microsoft Graph's concurrency limit, held across processes (issue 25 §3): Graph serves at most 4 requests
 * in flight per mailbox and answers a fifth with 429 (`ApplicationThrottled`, "MailboxConcurrency"). One
 * adapter never asks more than 4 at once (ProviderLimits.concurrency), but a runner syncing the mailbox, another
 * runner sending from it, and a web process fetching a body on read are three callers of one mailbox. So every
 * Graph exchange first takes one of the account's slots in `provider_call_slots` (a row per slot, shared by
 * every process) and gives it back when its answer has been read.
 *
 * A slot is taken by one statement (the first free one, `FOR UPDATE SKIP LOCKED`, so two takers never get the
 * same), held with a deadline (the exchange's own timeout and a margin: a process that dies holding it frees it
 * then), and given back by another. A taker that finds none free waits and looks again, 25 ms at first, doubling
 * to half a second, with jitter: slots turn over in one exchange's time, and a NOTIFY per release would cost
 * every exchange a third statement for a case (a mailbox at its limit) that waits on the provider anyway.
 */
import { randomUUID } from 'node:crypto';
import { db } from '../../core/db';
import { log } from '../../core/log';
import { abortableSleep } from './shared';

/** Graph's concurrent requests per mailbox. */
export const graphConcurrentRequests = 4;

/** How long past its exchange's own timeout a slot stays held when its holder never gives it back. */
const holdMarginMs = 10_000;
const firstWaitMs = 25;
const longestWaitMs = 500;

/** Gives a slot back; never throws (a slot not given back frees itself at its deadline). */
export type ReleaseSlot = () => Promise<void>;

export interface CallSlots {
  /**
   * Takes one of the account's slots for an exchange that lasts at most `exchangeMs`, waiting while all are
   * held; rejects when `signal` aborts.
   */
  take(exchangeMs: number, signal?: AbortSignal): Promise<ReleaseSlot>;
}

/** Accounts whose slot rows this process has made (the rows are made once, then only updated). */
const madeRows = new Set<string>();

async function makeRows(key: string, count: number): Promise<void> {
  const made = `${key}\u0000${count}`;
  if (madeRows.has(made)) return;
  await db().$executeRaw`
    INSERT INTO provider_call_slots (key, slot)
    SELECT ${key}, slot FROM generate_series(1, ${count}::int) AS slot
    ON CONFLICT (key, slot) DO NOTHING`;
  madeRows.add(made);
}

/** Takes the first free slot (free: never held, given back, or past its deadline); null when all are held. */
async function tryTake(key: string, count: number, holder: string, holdMs: number): Promise<number | null> {
  const rows = await db().$queryRaw<{ slot: number }[]>`
    UPDATE provider_call_slots AS taken
       SET holder = ${holder}, held_until = clock_timestamp() + ${holdMs}::int * interval '1 millisecond'
     WHERE (taken.key, taken.slot) = (
             SELECT key, slot FROM provider_call_slots
              WHERE key = ${key} AND slot <= ${count}::int AND (holder IS NULL OR held_until < clock_timestamp())
              ORDER BY slot
              LIMIT 1
                FOR UPDATE SKIP LOCKED)
    RETURNING taken.slot`;
  return rows[0]?.slot ?? null;
}

async function giveBack(key: string, slot: number, holder: string): Promise<void> {
  try {
    // Only its own holding: a slot past its deadline may have been taken by another caller since.
    await db().$executeRaw`
      UPDATE provider_call_slots SET holder = NULL, held_until = NULL
       WHERE key = ${key} AND slot = ${slot}::int AND holder = ${holder}`;
  } catch (err) {
    log.warn({ err, key, slot }, 'provider call slot not given back; it frees itself at its deadline');
  }
}

/** The `count` slots of one provider account (`key`). */
export function callSlots(key: string, count: number): CallSlots {
  return {
    async take(exchangeMs, signal) {
      signal?.throwIfAborted();
      await makeRows(key, count);
      const holder = randomUUID();
      const holdMs = Math.ceil(exchangeMs) + holdMarginMs;
      for (let waitMs = firstWaitMs; ; waitMs = Math.min(longestWaitMs, waitMs * 2)) {
        const slot = await tryTake(key, count, holder, holdMs);
        if (slot !== null) return () => giveBack(key, slot, holder);
        await abortableSleep(waitMs / 2 + Math.random() * waitMs, signal);
      }
    },
  };
}
