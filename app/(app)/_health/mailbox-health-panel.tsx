'use client';

/**
 * Mailbox health (GET /api/v1/mailboxes/health): per mailbox its state, last sync, how new mail is
 * watched and whether that watch is alive, the last error, the OAuth token's expiry, the dispatch
 * lag and the messages a large first sync has still to read. Self-contained (fetches its own data, refreshed every 30 s), for Settings → Mailboxes and, in
 * its `compact` form (one line per mailbox), the dashboard.
 */
import { useEffect, useState } from 'react';
import type { Locale } from '@/app/i18n';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { mailErrorKindText } from '../_shell/notifications/notification-text';
import { useMailboxHealth } from './_lib/api';

const stateTones: Record<string, BadgeTone> = { healthy: 'success', syncing: 'brand', stalled: 'warning', error: 'danger', disconnected: 'neutral' };

const refreshMs = 30_000;
/** While a mailbox syncs (its first sync, or the body pass reading a large mailbox's messages), its figures move by the second. */
const syncingRefreshMs = 3_000;

/** "3 min ago" / "il y a 3 min" (or "in 40 min" for a future expiry), from the API's ISO time. */
export function relativeTime(iso: string, locale: Locale, now: number, justNow: string): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (Math.abs(seconds) < 30) return justNow;
  const format = new Intl.RelativeTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { numeric: 'auto', style: 'short' });
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  return format.format(seconds, 'second');
}

/** The clock the relative times follow, ticking every 30 s. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), refreshMs);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Figure({ label, children, tone }: { label: string; children: React.ReactNode; tone?: 'danger' | 'warning' }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className={cn('truncate text-sm', tone === 'danger' && 'text-red-700 dark:text-red-300', tone === 'warning' && 'text-amber-800 dark:text-amber-300')}>{children}</dd>
    </div>
  );
}

export function MailboxHealthPanel({ compact = false }: { compact?: boolean }) {
  const { t, locale } = useI18n();
  const h = t.mailboxHealth;
  const now = useNow();
  const health = useMailboxHealth(refreshMs, syncingRefreshMs);
  const ago = (iso: string | null) => (iso ? relativeTime(iso, locale, now, h.justNow) : h.never);

  return (
    <Card className={cn(compact ? 'p-4' : 'p-5')} data-testid="mailbox-health">
      <h2 className="text-base font-semibold">{h.title}</h2>
      {compact ? null : <p className="mt-1 text-sm text-muted">{h.description}</p>}
      <div className="mt-4">
        {health.isPending ? (
          <LoadingState rows={compact ? 2 : 3} />
        ) : health.isError ? (
          <ErrorState error={health.error} onRetry={() => health.refetch()} testId="mailbox-health-error" />
        ) : health.data.mailboxes.length === 0 ? (
          <p className="text-sm text-muted">{h.empty}</p>
        ) : compact ? (
          <ul className="divide-y divide-line">
            {health.data.mailboxes.map((mailbox) => (
              <li key={mailbox.mailboxId} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm" data-testid="mailbox-health-row">
                <StatusBadge tone={stateTones[mailbox.state] ?? 'neutral'}>{h.states[mailbox.state] ?? mailbox.state}</StatusBadge>
                <span className="min-w-0 flex-1 truncate font-medium" title={mailbox.address}>
                  {mailbox.address}
                </span>
                <span className="text-muted">{h.syncedCompact(ago(mailbox.lastSuccessfulSyncAt))}</span>
                {mailbox.watch.mode ? (
                  <span className={cn('text-xs', mailbox.watch.alive ? 'text-muted' : 'text-amber-800 dark:text-amber-300')}>
                    {h.watchModes[mailbox.watch.mode]} · {mailbox.watch.alive ? h.watchAlive : h.watchDead}
                  </span>
                ) : null}
                {mailbox.bodiesPending > 0 ? <span className="text-xs text-muted" data-testid="mailbox-health-bodies">{h.bodiesCompact(mailbox.bodiesPending)}</span> : null}
                {mailbox.dispatchLag.pending > 0 ? <span className="text-xs text-amber-800 dark:text-amber-300">{h.dispatchLagValue(mailbox.dispatchLag.pending, null)}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <ul className="grid gap-4">
            {health.data.mailboxes.map((mailbox) => (
              <li key={mailbox.mailboxId} className="rounded-lg border border-line p-4" data-testid="mailbox-health-row">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 flex-1 truncate font-medium" title={mailbox.address}>
                    {mailbox.address}
                  </span>
                  <StatusBadge tone={stateTones[mailbox.state] ?? 'neutral'}>{h.states[mailbox.state] ?? mailbox.state}</StatusBadge>
                </div>
                {mailbox.stalled ? (
                  <p className="mt-2 text-sm text-amber-800 dark:text-amber-300">
                    {h.stalledSince(ago(mailbox.stalled.since))}: {h.stalledReasons[mailbox.stalled.reason] ?? mailbox.stalled.reason}
                  </p>
                ) : null}
                <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
                  <Figure label={h.lastSync}>
                    <span title={mailbox.lastSuccessfulSyncAt ? formatDateTime(mailbox.lastSuccessfulSyncAt, locale) : undefined}>{ago(mailbox.lastSuccessfulSyncAt)}</span>
                  </Figure>
                  <Figure label={h.lastDelta}>{ago(mailbox.lastDeltaAt)}</Figure>
                  <Figure label={h.watch} tone={mailbox.watch.mode && !mailbox.watch.alive && mailbox.status === 'active' ? 'warning' : undefined}>
                    {mailbox.watch.mode ? `${h.watchModes[mailbox.watch.mode]} · ${mailbox.watch.alive ? h.watchAlive : h.watchDead}` : h.watchNone}
                  </Figure>
                  <Figure label={h.dispatchLag} tone={mailbox.dispatchLag.pending > 0 ? 'warning' : undefined}>
                    {h.dispatchLagValue(mailbox.dispatchLag.pending, mailbox.dispatchLag.oldestEnqueuedAt ? ago(mailbox.dispatchLag.oldestEnqueuedAt) : null)}
                  </Figure>
                  {mailbox.bodiesPending > 0 ? (
                    <Figure label={h.bodies}>
                      <span data-testid="mailbox-health-bodies">{h.bodiesValue(mailbox.bodiesPending)}</span>
                    </Figure>
                  ) : null}
                  {mailbox.oauth ? (
                    <>
                      <Figure label={h.oauthExpires}>{mailbox.oauth.expiresAt ? formatDateTime(mailbox.oauth.expiresAt, locale) : h.never}</Figure>
                      <Figure label={h.oauthRefreshed}>{ago(mailbox.oauth.lastRefreshedAt)}</Figure>
                    </>
                  ) : null}
                  {mailbox.lastError ? (
                    <div className="col-span-full">
                      <Figure label={h.lastError} tone={mailbox.state === 'error' ? 'danger' : undefined}>
                        {mailErrorKindText(mailbox.lastError.kind, t)}
                        {mailbox.lastError.at ? ` (${ago(mailbox.lastError.at)})` : ''}
                      </Figure>
                    </div>
                  ) : null}
                </dl>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
