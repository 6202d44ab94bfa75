'use client';

/** A thread's status as a chip (`data-testid="support-status"`, the label in the interface language). */
import { useI18n } from '@/app/i18n/client';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import type { SupportStatus } from '../_lib/api';

const tones: Record<SupportStatus, BadgeTone> = {
  received: 'neutral',
  in_study: 'brand',
  quoted: 'warning',
  in_progress: 'brand',
  delivered: 'success',
  rejected: 'danger',
  open: 'brand',
  closed: 'neutral',
};

export function SupportStatusChip({ status }: { status: SupportStatus }) {
  const { t } = useI18n();
  return (
    <Badge tone={tones[status] ?? 'neutral'} data-testid="support-status" data-status={status}>
      <span aria-hidden="true" className="size-1.5 rounded-full bg-current" />
      {t.support.statuses[status] ?? status}
    </Badge>
  );
}
