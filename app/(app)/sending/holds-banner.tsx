'use client';

/**
 * The open holds of the blast-radius guard, with why and a one-click Release (self-contained: mount it
 * above the review queue or the sending journal). Renders nothing while there is no open hold.
 */
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { useRealtimeEvent } from '@/app/lib/realtime';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { useOpenHolds, useRefreshHolds, useReleaseHold } from './_lib/api';
import { holdText, type SendHoldView } from './hold-text';

function HoldRow({ hold }: { hold: SendHoldView }) {
  const { t, locale } = useI18n();
  const release = useReleaseHold();
  const text = holdText(hold, t);
  return (
    <li className="flex flex-wrap items-start gap-3 py-2" data-testid="send-hold">
      <div className="min-w-0 flex-1 space-y-0.5">
        <p className="font-medium">{text.title}</p>
        <p className="opacity-90">{text.why}</p>
        <p className="text-xs opacity-75">
          {t.sendGuard.held(hold.heldCount)} · {t.sendGuard.since(formatDateTime(hold.createdAt, locale))}
        </p>
        {release.isError ? (
          <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-300" data-testid="send-hold-error">
            {describeError(release.error, t)}
          </p>
        ) : null}
      </div>
      <Button
        size="sm"
        variant="primary"
        loading={release.isPending}
        disabled={release.isPending}
        aria-label={t.sendGuard.releaseLabel(text.title)}
        onClick={() => release.mutate({ id: hold.id })}
        data-testid="send-hold-release"
      >
        {release.isPending ? t.sendGuard.releasing : t.sendGuard.release}
      </Button>
    </li>
  );
}

export function HoldsBanner() {
  const { t } = useI18n();
  const holds = useOpenHolds();
  const refreshHolds = useRefreshHolds();
  useRealtimeEvent('sending.hold', () => void refreshHolds());

  if (holds.isError) {
    return (
      <Alert tone="warning" testId="send-holds-error">
        {t.sendGuard.loadFailed}
      </Alert>
    );
  }
  const items = holds.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Alert tone="warning" testId="send-holds" title={t.sendGuard.bannerTitle(items.length)}>
      <p>{t.sendGuard.bannerIntro}</p>
      <ul className="mt-1 divide-y divide-amber-500/25">
        {items.map((hold) => (
          <HoldRow key={hold.id} hold={hold} />
        ))}
      </ul>
    </Alert>
  );
}
