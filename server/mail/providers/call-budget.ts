/**
 * The OAuth providers' per-account quotas, respected before they are hit (issue 25 §3). Gmail counts
 * quota units per user per minute (each method has its cost: a `messages.get` 5, a `messages.send` 100);
 * Microsoft Graph allows 10,000 requests per mailbox per 10 minutes. A large initial sync or a backfill
 * asks far faster than that, and answering its 429s one by one still costs quota and time. So every call
 * first takes its cost from a token bucket per provider account, kept in PostgreSQL
 * (`provider_call_budgets`) so that every runner and web process shares it.
 *
 * The bucket keeps every window under the quota with room to spare: with a quota of Q per window W, it
 * holds at most a tenth of Q and refills 0.75 Q per W, so the calls it lets go in any W-long stretch
 * cost at most 0.85 Q. The spare 15 % absorbs the delays between letting a call go and the provider
 * counting it (a loaded machine, a slow network: up to a fifth of the window, 12 s for Gmail's minute),
 * which would otherwise push calls of one window into the next. A caller reserves its cost in one
 * statement (the balance may go below zero) and then waits until the refill covers it, so callers are
 * served in the order they reserved and no one spins on the database.
 */
import { config } from '../../core/config';
import { db } from '../../core/db';
import { callSlots, graphConcurrentRequests, type CallSlots } from './call-slots';
import { abortableSleep } from './shared';

export interface ProviderQuota {
  /** What the provider allows per window (quota units for Gmail, requests for Graph). */
  perWindow: number;
  windowSeconds: number;
}

/** The part of the quota a bucket may spend at once, and the part it refills per window. */
const burstShare = 0.1;
const refillShare = 0.75;

export interface CallBudget {
  /** Takes `cost` from the account's budget, waiting until it is covered; rejects when `signal` aborts. */
  take(cost: number, signal?: AbortSignal): Promise<void>;
}

/** The budget of one provider account (`key`), under `quota`. */
export function callBudget(key: string, quota: ProviderQuota): CallBudget {
  const capacity = Math.max(1, quota.perWindow * burstShare);
  const perSecond = (quota.perWindow * refillShare) / quota.windowSeconds;
  return {
    async take(cost, signal) {
      signal?.throwIfAborted();
      // A call dearer than a whole bucket still goes: it waits for a full bucket and overdraws it.
      const waitMs = await reserve(key, Math.max(0, cost), capacity, perSecond);
      if (waitMs > 0) await abortableSleep(waitMs, signal);
    },
  };
}

/**
 * Refills the bucket for the time since its last refill (never above `capacity`), takes `cost` and
 * answers how long the caller must wait for the balance to come back to zero. One statement: two
 * processes reserving at once are serialised by the row lock of the upsert.
 */
async function reserve(key: string, cost: number, capacity: number, perSecond: number): Promise<number> {
  const rows = await db().$queryRaw<{ tokens: number }[]>`
    INSERT INTO provider_call_budgets AS budget (key, tokens, refilled_at)
    VALUES (${key}, ${capacity}::float8 - ${cost}::float8, clock_timestamp())
    ON CONFLICT (key) DO UPDATE SET
      tokens = least(${capacity}::float8,
                     budget.tokens + ${perSecond}::float8 * extract(epoch FROM clock_timestamp() - budget.refilled_at)::float8)
               - ${cost}::float8,
      refilled_at = clock_timestamp()
    RETURNING tokens`;
  const balance = Number(rows[0]?.tokens ?? 0);
  return balance >= 0 ? 0 : Math.ceil((-balance / perSecond) * 1000);
}

type OAuthProvider = 'mail_provider_a' | 'mail_provider_b';

/** The instance's setting of a provider's quota (MAIL_PROVIDER_A_QUOTA_UNITS_PER_MINUTE, MAIL_PROVIDER_B_REQUESTS_PER_10_MINUTES). */
export function instanceQuota(provider: OAuthProvider): ProviderQuota {
  return provider === 'mail_provider_a'
    ? { perWindow: config().MAIL_PROVIDER_A_QUOTA_UNITS_PER_MINUTE, windowSeconds: 60 }
    : { perWindow: config().MAIL_PROVIDER_B_REQUESTS_PER_10_MINUTES, windowSeconds: 600 };
}

interface ProviderAccount {
  address: string;
  mailboxId: string;
}

/**
 * A provider account's key: its address (two members connecting the same account share its quota, as the
 * provider counts it), or the mailbox when the address is unknown.
 */
function accountKey(provider: OAuthProvider, account: ProviderAccount): string {
  return `${provider}:${account.address.trim().toLowerCase() || `mailbox:${account.mailboxId}`}`;
}

/** The budget of a provider account. */
export function accountBudget(provider: OAuthProvider, account: ProviderAccount, quota: ProviderQuota = instanceQuota(provider)): CallBudget {
  return callBudget(accountKey(provider, account), quota);
}

/** The concurrent requests a provider account allows, held across processes (call-slots.ts); Gmail states none. */
export function accountSlots(provider: OAuthProvider, account: ProviderAccount): CallSlots | undefined {
  return provider === 'mail_provider_b' ? callSlots(accountKey(provider, account), graphConcurrentRequests) : undefined;
}
