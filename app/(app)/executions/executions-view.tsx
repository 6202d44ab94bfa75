'use client';

/**
 * Every run of the member's workflows, newest first, filtered by workflow, mailbox, status, live/test,
 * effects (runs that acted or did nothing), a search on the triggering email and a time window (the
 * dashboard's drill-down: shown as a removable chip); pages by cursor. The filters live in the URL, so
 * a filtered list can be linked to (the dashboard's bars and rows do). A finished
 * run that did nothing carries a "No effect" badge. Statuses update live: the shell refreshes this
 * list on each `execution.status` event.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { useRealtimeStatus } from '@/app/lib/realtime';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Input, Select } from '@/app/ui/field';
import { ActivityIcon, SearchIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { useMailboxes } from '../settings/mailboxes/_lib/api';
import { useWorkflowList } from '../workflows/_lib/api';
import { ExecutionsNav } from './_components/executions-nav';
import { TriggerHeadline } from './_components/trigger-headline';
import { WindowChip } from './_components/window-chip';
import { useExecutionPages, type Execution } from './_lib/api';
import { isFiltered, noFilters, queryOfFilters, searchOfFilters, type ExecutionFilterState } from './_lib/filters';
import { noWindow } from './_lib/time-window';
import { durationMs, executionStatuses, executionStatusTone, formatDuration, isInProgress } from './_lib/status';

/** Re-renders every second while some run is in progress, so its duration counts up. */
function useTicker(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function ExecutionRow({ execution, workflowName, now }: { execution: Execution; workflowName: string | null; now: number }) {
  const { t, locale } = useI18n();
  const duration = durationMs(execution.startedAt, execution.finishedAt, now);
  return (
    <TR data-testid="execution-row" data-status={execution.status} className="relative">
      <TD className="whitespace-nowrap">
        <Link
          href={`/executions/${execution.id}`}
          className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:rounded-sm focus-visible:after:outline-2 focus-visible:after:outline-brand"
        >
          <StatusBadge tone={executionStatusTone(execution.status)}>
            <span data-testid="execution-status">{t.executions.status[execution.status] ?? execution.status}</span>
          </StatusBadge>
        </Link>
      </TD>
      <TD className="max-w-64">
        <span className="flex min-w-0 items-center gap-2">
          <span className={workflowName ? 'truncate font-medium' : 'truncate text-muted italic'}>{workflowName ?? t.executions.deletedWorkflow}</span>
          {execution.simulated ? <Badge tone="brand">{t.executions.testRun}</Badge> : null}
          {/* A finished run that acted on nothing: "Succeeded" alone reads as "it worked" (issue 19 §3). */}
          {execution.acted === false ? (
            <Badge tone="neutral" title={t.executions.noEffectHint} data-testid="execution-no-effect">
              {t.executions.noEffect}
            </Badge>
          ) : null}
        </span>
      </TD>
      <TD className="max-w-80">
        <TriggerHeadline headline={execution.messageHeadline} triggerType={execution.triggerType} />
      </TD>
      <TD className="whitespace-nowrap text-muted" title={execution.startedAt ? formatDateTime(execution.startedAt, locale) : undefined}>
        {execution.startedAt ? formatListDate(execution.startedAt, locale) : t.executions.notStarted}
      </TD>
      <TD className="whitespace-nowrap text-muted" title={execution.finishedAt ? formatDateTime(execution.finishedAt, locale) : undefined}>
        {execution.finishedAt ? formatListDate(execution.finishedAt, locale) : isInProgress(execution.status) ? t.executions.inProgress : '—'}
      </TD>
      <TD className="text-right whitespace-nowrap tabular-nums">{duration === null ? '—' : formatDuration(duration, locale)}</TD>
    </TR>
  );
}

function Filters({ filters, onChange }: { filters: ExecutionFilterState; onChange: (next: ExecutionFilterState) => void }) {
  const { t } = useI18n();
  const workflows = useWorkflowList();
  const mailboxes = useMailboxes();
  const [q, setQ] = useState(filters.q);
  const filtered = isFiltered(filters);
  const mailboxChoices = mailboxes.data ?? [];
  return (
    <form
      role="search"
      aria-label={t.executions.filters.label}
      className="mb-4 flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        onChange({ ...filters, q });
      }}
    >
      <label className="min-w-48 flex-1 sm:max-w-64">
        <span className="sr-only">{t.executions.filters.workflow}</span>
        <Select controlSize="sm" value={filters.workflowId} onChange={(event) => onChange({ ...filters, workflowId: event.target.value })}>
          <option value="">{t.executions.filters.anyWorkflow}</option>
          {(workflows.data?.workflows ?? []).map((workflow) => (
            <option key={workflow.id} value={workflow.id}>
              {workflow.name}
            </option>
          ))}
        </Select>
      </label>
      {/* Shown once there is a choice to make, or when the URL narrowed the list to one mailbox. */}
      {mailboxChoices.length > 1 || filters.mailboxId ? (
        <FilterSelect
          className="w-56"
          label={t.listWindow.mailbox}
          value={filters.mailboxId}
          onSelect={(mailboxId) => onChange({ ...filters, mailboxId })}
          options={[
            { value: '', label: t.listWindow.anyMailbox },
            ...mailboxChoices.map((mailbox) => ({ value: mailbox.id, label: mailbox.address })),
            // A mailbox the list does not know (removed, or not loaded yet) stays selectable so the select shows the filter.
            ...(filters.mailboxId && !mailboxChoices.some((mailbox) => mailbox.id === filters.mailboxId) ? [{ value: filters.mailboxId, label: t.journal.removedMailbox }] : []),
          ]}
        />
      ) : null}
      <FilterSelect
        className="w-40"
        label={t.executions.filters.status}
        value={filters.status}
        onSelect={(status) => onChange({ ...filters, status: status as ExecutionFilterState['status'] })}
        options={[{ value: '', label: t.executions.filters.anyStatus }, ...executionStatuses.map((status) => ({ value: status, label: t.executions.status[status] }))]}
      />
      <FilterSelect
        className="w-44"
        label={t.executions.filters.kind}
        value={filters.simulated}
        onSelect={(simulated) => onChange({ ...filters, simulated: simulated as ExecutionFilterState['simulated'] })}
        options={[
          { value: '', label: t.executions.filters.anyKind },
          { value: 'false', label: t.executions.filters.live },
          { value: 'true', label: t.executions.filters.test },
        ]}
      />
      <FilterSelect
        className="w-48"
        label={t.executions.filters.effects}
        value={filters.effects}
        onSelect={(effects) => onChange({ ...filters, effects: effects as ExecutionFilterState['effects'] })}
        options={[
          { value: '', label: t.executions.filters.anyEffects },
          { value: 'with', label: t.executions.filters.withEffects },
          { value: 'without', label: t.executions.filters.withoutEffects },
        ]}
      />
      <label className="relative min-w-48 flex-1">
        <span className="sr-only">{t.executions.filters.search}</span>
        <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
        <Input
          controlSize="sm"
          type="search"
          className="pl-8"
          maxLength={200}
          placeholder={t.executions.filters.searchPlaceholder}
          value={q}
          onChange={(event) => setQ(event.target.value)}
          onBlur={() => q !== filters.q && onChange({ ...filters, q })}
        />
      </label>
      <WindowChip window={filters} onClear={() => onChange({ ...filters, ...noWindow })} />
      {filtered ? (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => {
            setQ('');
            onChange(noFilters);
          }}
        >
          {t.executions.filters.clear}
        </Button>
      ) : null}
    </form>
  );
}

/** One of the list's filters: a labelled select whose first option means "any". */
function FilterSelect({ className, label, value, onSelect, options }: { className: string; label: string; value: string; onSelect: (value: string) => void; options: { value: string; label: string }[] }) {
  return (
    <label className={className}>
      <span className="sr-only">{label}</span>
      <Select controlSize="sm" value={value} onChange={(event) => onSelect(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </Select>
    </label>
  );
}

export function ExecutionsView({ initialFilters }: { initialFilters: ExecutionFilterState }) {
  const { t } = useI18n();
  const router = useRouter();
  const live = useRealtimeStatus();
  const [filters, setFilters] = useState(initialFilters);
  // A link to this page from this page (the nav, a dashboard link in another tab's history) brings new
  // filters from the URL: they replace the current ones.
  const [linked, setLinked] = useState(() => searchOfFilters(initialFilters));
  if (searchOfFilters(initialFilters) !== linked) {
    setLinked(searchOfFilters(initialFilters));
    setFilters(initialFilters);
  }
  const pages = useExecutionPages(queryOfFilters(filters));
  const workflows = useWorkflowList();
  const names = useMemo(() => new Map((workflows.data?.workflows ?? []).map((workflow) => [workflow.id, workflow.name])), [workflows.data]);
  const executions = pages.data?.pages.flatMap((page) => page.executions) ?? [];
  const now = useTicker(executions.some((execution) => isInProgress(execution.status)));
  const filtered = isFiltered(filters);

  function changeFilters(next: ExecutionFilterState) {
    setFilters(next);
    router.replace(`/executions${searchOfFilters(next)}`, { scroll: false });
  }

  return (
    <>
      <PageHeader
        title={t.executions.title}
        description={t.executions.description}
        actions={
          live ? (
            <Badge tone="success" className="self-center" data-testid="executions-live">
              <span aria-hidden="true" className="size-1.5 animate-pulse rounded-full bg-current" />
              {t.executions.live}
            </Badge>
          ) : null
        }
      />
      <ExecutionsNav current="runs" />
      <Filters key={linked} filters={filters} onChange={changeFilters} />
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="executions-error" />
      ) : executions.length === 0 ? (
        <EmptyState
          icon={<ActivityIcon size={18} />}
          title={filtered ? t.executions.emptyFiltered.title : t.executions.empty.title}
          body={filtered ? t.executions.emptyFiltered.body : t.executions.empty.body}
        />
      ) : (
        <>
          <Table caption={t.executions.title}>
            <THead>
              <TH>{t.executions.columns.status}</TH>
              <TH>{t.executions.columns.workflow}</TH>
              <TH>{t.executions.columns.trigger}</TH>
              <TH>{t.executions.columns.started}</TH>
              <TH>{t.executions.columns.finished}</TH>
              <TH className="text-right">{t.executions.columns.duration}</TH>
            </THead>
            <TBody>
              {executions.map((execution) => (
                <ExecutionRow key={execution.id} execution={execution} workflowName={names.get(execution.workflowId) ?? (workflows.isPending ? '' : null)} now={now} />
              ))}
            </TBody>
          </Table>
          <LoadMoreFooter pages={pages} end={t.executions.end} errorTestId="executions-more-error" />
        </>
      )}
    </>
  );
}
