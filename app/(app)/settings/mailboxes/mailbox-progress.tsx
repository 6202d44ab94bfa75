'use client';

/** The sync and backfill progress of one mailbox (updated live by `mailbox.status` events). */
import { useI18n } from '@/app/i18n/client';
import { formatDate } from '@/app/lib/format';
import type { Mailbox } from '@/app/lib/mail-types';
import { ProgressBar } from '@/app/ui/progress';

function Row({ label, detail, children }: { label: string; detail?: string | null; children?: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-3 text-xs">
        <span className="font-medium text-fg/90">{label}</span>
        {detail ? <span className="text-muted">{detail}</span> : null}
      </div>
      {children}
    </div>
  );
}

/** `syncing`: a sync the member asked for and that has not reported yet, or the first sync. */
export function MailboxProgress({ mailbox, syncing }: { mailbox: Mailbox; syncing: boolean }) {
  const { t, locale } = useI18n();
  const m = t.mailboxes.progress;
  const initial = mailbox.status === 'active' && mailbox.lastDeltaAt === null;
  const backfill = mailbox.backfill;
  const active = backfill && (backfill.status === 'pending' || backfill.status === 'running');
  const oldest = backfill?.oldestSyncedAt ? formatDate(backfill.oldestSyncedAt, locale) : null;

  if (!initial && !syncing && !backfill) return null;
  return (
    <div className="space-y-3" data-testid="mailbox-progress">
      {initial || syncing ? (
        <Row label={initial ? m.initialSync : m.syncing}>
          <ProgressBar value={null} label={initial ? m.initialSync : m.syncing} testId="sync-progress" />
        </Row>
      ) : null}
      {backfill ? (
        <Row
          label={m.backfill[backfill.status]}
          detail={
            active && backfill.progressPct !== null
              ? m.percent(Math.round(backfill.progressPct))
              : oldest
                ? m.oldest(oldest)
                : null
          }
        >
          {active ? (
            <ProgressBar value={backfill.progressPct} label={m.backfill[backfill.status]} testId="backfill-progress" />
          ) : backfill.status === 'failed' ? (
            <ProgressBar value={backfill.progressPct ?? 0} tone="warning" label={m.backfill.failed} testId="backfill-progress" />
          ) : null}
        </Row>
      ) : null}
    </div>
  );
}
