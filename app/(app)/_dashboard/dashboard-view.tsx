'use client';

/**
 * The home page: key figures against the previous period, runs and mail per bucket, AI spend, top
 * and failing workflows and recent failures, for the period, zone, scope and filters held in the
 * address. Refreshes itself (throttled) when runs end; a fresh account sees what to do first instead
 * of empty charts. `healthPanel`: the mailbox health panel's slot (lane health), below the figures.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { useRealtimeEvent, useRealtimeReconnect, useRealtimeStatus } from '@/app/lib/realtime';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { buttonClasses } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { ChartIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { ErrorState } from '@/app/ui/states';
import { GetStarted } from '../_onboarding/get-started';
import { useMe } from '../_shell/_lib/api';
import { useAcknowledgeFailure, useDashboardFigures, useInvalidateDashboard } from './_lib/api';
import { AiCharts, MailChart, RunsChart } from './charts';
import { DashboardFilters } from './filters';
import { KpiCards, KpiSkeleton } from './kpi-cards';
import { browserTimeZone, queryOfView, searchOfView, type DashboardView as View } from './search';
import { throttle } from './throttle';
import { RecentFailures, WorkflowTable } from './workflow-tables';

/** At most one live re-read of the figures per this many milliseconds. */
export const LIVE_REFRESH_MS = 5_000;
/** How often the organisation's figures are re-read while shown. */
export const ORG_REFRESH_MS = 30_000;

const endedStatuses = new Set(['succeeded', 'failed', 'cancelled']);

function TeachingEmptyState() {
  const { t } = useI18n();
  const texts = t.dashboard.empty;
  const steps = [
    { key: 'mailbox', href: '/settings/mailboxes' },
    { key: 'workflow', href: '/workflows' },
    { key: 'templates', href: '/templates' },
  ] as const;
  return (
    <Card className="mb-6 p-6" data-testid="dashboard-empty">
      <div className="flex items-start gap-4">
        <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
          <ChartIcon size={18} />
        </div>
        <div className="min-w-0">
          <h2 className="text-base font-semibold">{texts.title}</h2>
          <p className="mt-1 max-w-2xl text-sm text-muted">{texts.body}</p>
        </div>
      </div>
      <ol className="mt-5 grid gap-3 md:grid-cols-3">
        {steps.map((step, index) => (
          <li key={step.key} className="flex flex-col rounded-lg border border-line p-4">
            <span className="text-xs font-medium text-muted">{index + 1}</span>
            <span className="mt-1 text-sm font-medium">{texts.steps[step.key].title}</span>
            <span className="mt-1 flex-1 text-xs text-muted">{texts.steps[step.key].body}</span>
            <Link href={step.href} className={buttonClasses('secondary', 'sm', 'mt-3 self-start')}>
              {texts.steps[step.key].action}
            </Link>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function ChartsSkeleton() {
  return (
    <div className="mb-6 grid gap-4 lg:grid-cols-2" aria-hidden="true" data-testid="charts-loading">
      {[0, 1].map((key) => (
        <Card key={key} className="p-4">
          <div className="h-3 w-1/3 animate-pulse rounded bg-subtle" />
          <div className="mt-4 h-48 animate-pulse rounded bg-subtle" />
        </Card>
      ))}
    </div>
  );
}

export function DashboardView({ initialView, healthPanel }: { initialView: View; healthPanel?: ReactNode }) {
  const { t } = useI18n();
  const router = useRouter();
  const live = useRealtimeStatus();
  const me = useMe();
  const isAdmin = me.data?.role === 'admin';
  const [view, setView] = useState(initialView);
  // The browser's zone is known after mount only (the server render has none): no query before it.
  const [browserZone, setBrowserZone] = useState<string | null>(null);
  useEffect(() => setBrowserZone(browserTimeZone()), []);
  const tz = view.tz || browserZone;

  // A member never asks for the organisation (an address shared by an administrator falls back to "me").
  const effective: View = useMemo(() => (me.data && !isAdmin ? { ...view, scope: 'me', memberId: '' } : view), [view, me.data, isAdmin]);
  // Only the organisation's figures need to know who asks: a member's own start at once.
  const query = tz && (me.data || (view.scope === 'me' && !view.memberId)) ? queryOfView(effective, tz) : null;
  // Run events reach a member's own sockets only (another member's runs stay invisible, ids included), so
  // the organisation's figures are re-read on a timer instead.
  const { executions, mail, ai } = useDashboardFigures(query, effective.scope === 'org' ? ORG_REFRESH_MS : false);

  function changeView(next: View) {
    setView(next);
    router.replace(`/${searchOfView(next)}`, { scroll: false });
  }

  // Live: runs that end re-read the figures, at most once per LIVE_REFRESH_MS, without a page reload.
  const refresh = useRef<ReturnType<typeof throttle> | null>(null);
  const invalidate = useInvalidateDashboard();
  useEffect(() => {
    const call = throttle(invalidate, LIVE_REFRESH_MS);
    refresh.current = call;
    return () => call.cancel();
  }, [invalidate]);
  useRealtimeEvent('execution.status', (payload) => {
    if (!payload.status || endedStatuses.has(payload.status)) refresh.current?.();
  });
  useRealtimeReconnect(() => refresh.current?.());

  const acknowledge = useAcknowledgeFailure(query);

  // Runs and mail are the page: without them, an error with a retry. AI figures that cannot be read
  // leave the rest of the page up, with their own error where their charts go.
  const failed = [executions, mail].find((result) => result.isError && !result.data);
  const aiFailed = ai.isError && !ai.data;
  const ready = executions.data && mail.data && (ai.data || aiFailed);
  const filtered = Boolean(effective.mailboxId || effective.workflowId || effective.memberId);
  const nothing =
    ready &&
    executions.data!.current.total + executions.data!.previous.total === 0 &&
    mail.data!.current.received + mail.data!.previous.received === 0 &&
    (ai.data ? ai.data.current.calls + ai.data.previous.calls : 0) === 0;
  const orgView = isAdmin && effective.scope === 'org';

  return (
    <>
      <PageHeader
        title={t.sections.dashboard.title}
        description={t.sections.dashboard.description}
        actions={
          live ? (
            <Badge tone="success" className="self-center" data-testid="dashboard-live">
              <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-current" />
              {t.dashboard.live}
            </Badge>
          ) : null
        }
      />
      <GetStarted />
      <DashboardFilters view={effective} isAdmin={isAdmin} onChange={changeView} tz={tz ?? ''} />
      {acknowledge.isError ? (
        <Alert tone="danger" testId="dashboard-acknowledge-error" className="mb-4">
          {describeError(acknowledge.error, t)}
        </Alert>
      ) : null}
      {failed ? (
        <div data-testid="dashboard-error">
          <ErrorState
            error={failed.error}
            testId="dashboard-error-state"
            onRetry={() => {
              void executions.refetch();
              void mail.refetch();
              void ai.refetch();
            }}
          />
        </div>
      ) : !ready ? (
        query === null && tz && me.data ? null : (
          <>
            <KpiSkeleton />
            <ChartsSkeleton />
          </>
        )
      ) : nothing && !filtered ? (
        <>
          <TeachingEmptyState />
          {healthPanel}
        </>
      ) : (
        <div aria-busy={executions.isFetching || mail.isFetching || ai.isFetching} data-testid="dashboard-figures">
          {nothing ? (
            <p className="mb-4 text-sm text-muted" data-testid="dashboard-empty-filtered">
              {t.dashboard.empty.filtered}
            </p>
          ) : null}
          <KpiCards executions={executions.data!} mail={mail.data!} ai={ai.data} />
          {/* Slot of the mailbox health panel (lane health: app/(app)/_health/mailbox-health-panel.tsx). */}
          {healthPanel}
          <div className="mb-6 grid gap-4 lg:grid-cols-2">
            <RunsChart data={executions.data!} tz={tz!} workflowId={effective.workflowId || undefined} />
            <MailChart data={mail.data!} tz={tz!} />
          </div>
          <div className="mb-6 grid gap-4 lg:grid-cols-2">
            <WorkflowTable kind="top" rows={executions.data!.topWorkflows} window={executions.data!.window} showOwner={orgView} />
            <WorkflowTable kind="failing" rows={executions.data!.failingWorkflows} window={executions.data!.window} showOwner={orgView} />
          </div>
          <div className="mb-6">
            <RecentFailures
              rows={executions.data!.recentFailures}
              showOwner={orgView}
              pendingIncidentId={acknowledge.isPending ? (acknowledge.variables?.id ?? null) : null}
              onAcknowledge={(id) => acknowledge.mutate({ id })}
            />
          </div>
          {ai.data ? (
            <div className="mb-6 grid gap-4 lg:grid-cols-3">
              <AiCharts data={ai.data} showMembers={orgView && !effective.memberId} />
            </div>
          ) : (
            <div className="mb-6">
              <ErrorState error={ai.error} onRetry={() => void ai.refetch()} testId="dashboard-ai-error" />
            </div>
          )}
        </div>
      )}
    </>
  );
}
