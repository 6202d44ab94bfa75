'use client';

/** One incident per failed live run, newest first, with the step at fault; acknowledge them here. */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { CheckboxField } from '@/app/ui/field';
import { AlertIcon, CheckIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { LoadMoreFooter } from '@/app/ui/load-more';
import { ExecutionsNav } from '../_components/executions-nav';
import { useExecutionMutations, useIncidentPages, useRefreshIncidents, type Incident } from '../_lib/api';

function IncidentRow({ incident, onAcknowledge, pending }: { incident: Incident; onAcknowledge: () => void; pending: boolean }) {
  const { t, locale } = useI18n();
  const workflow = incident.workflowName || t.executions.deletedWorkflow;
  return (
    <TR data-testid="incident-row" data-acknowledged={incident.acknowledgedAt ? true : undefined} data-resolved={incident.resolvedAt ? true : undefined}>
      <TD className="whitespace-nowrap text-muted" title={formatDateTime(incident.failedAt, locale)}>
        {formatListDate(incident.failedAt, locale)}
      </TD>
      <TD className="max-w-56 truncate font-medium">{workflow}</TD>
      <TD className="max-w-48 truncate">{incident.nodeName ?? incident.nodeId ?? '—'}</TD>
      <TD className="max-w-96">
        <span className="line-clamp-2 text-[13px]" data-testid="incident-summary">
          {incident.errorSummary}
        </span>
        <Link href={`/executions/${incident.executionId}`} className="text-xs font-medium text-brand-fg hover:underline">
          {t.executions.incidents.openExecution}
        </Link>
      </TD>
      <TD className="whitespace-nowrap">
        {incident.resolvedAt && incident.resolvedByExecutionId ? (
          // A successful replay answered it (server/engine/run/resolve-incidents.ts): say so and link to it.
          <span className="inline-flex flex-col gap-0.5 text-xs text-muted" data-testid="incident-resolved">
            <span className="inline-flex items-center gap-1">
              <CheckIcon size={14} />
              {t.executions.incidents.resolved(formatListDate(incident.resolvedAt, locale))}
            </span>
            <Link href={`/executions/${incident.resolvedByExecutionId}`} className="font-medium text-brand-fg hover:underline">
              {t.executions.incidents.openReplay}
            </Link>
          </span>
        ) : incident.acknowledgedAt ? (
          <span className="inline-flex items-center gap-1 text-xs text-muted">
            <CheckIcon size={14} />
            {t.executions.incidents.acknowledged(formatListDate(incident.acknowledgedAt, locale))}
          </span>
        ) : (
          <span className="inline-flex items-center gap-2">
            <Badge tone="danger">{t.executions.incidents.open}</Badge>
            <Button size="sm" loading={pending} aria-label={t.executions.incidents.acknowledgeLabel(workflow)} onClick={onAcknowledge}>
              {t.executions.incidents.acknowledge}
            </Button>
          </span>
        )}
      </TD>
    </TR>
  );
}

export function IncidentsView() {
  const { t } = useI18n();
  const refreshIncidents = useRefreshIncidents();
  const [unacknowledged, setUnacknowledged] = useState(false);
  const pages = useIncidentPages(unacknowledged);
  const mutations = useExecutionMutations();
  const acknowledge = useMutation({
    ...mutations.acknowledge,
    onSuccess: refreshIncidents,
  });
  const items = pages.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <>
      <PageHeader title={t.executions.title} description={t.executions.incidents.description} />
      <ExecutionsNav current="incidents" />
      <CheckboxField
        className="mb-4"
        label={t.executions.incidents.unacknowledgedOnly}
        checked={unacknowledged}
        onChange={(event) => setUnacknowledged(event.target.checked)}
      />
      {acknowledge.isError ? (
        <Alert tone="danger" testId="acknowledge-error" className="mb-4">
          {describeError(acknowledge.error, t)}
        </Alert>
      ) : null}
      {pages.isPending ? (
        <LoadingState />
      ) : !pages.data ? (
        <ErrorState error={pages.error} onRetry={() => pages.refetch()} testId="incidents-error" />
      ) : items.length === 0 ? (
        <EmptyState
          icon={<AlertIcon size={18} />}
          title={unacknowledged ? t.executions.incidents.emptyUnacknowledged.title : t.executions.incidents.empty.title}
          body={unacknowledged ? t.executions.incidents.emptyUnacknowledged.body : t.executions.incidents.empty.body}
        />
      ) : (
        <>
          <Table caption={t.executions.incidents.title}>
            <THead>
              <TH>{t.executions.incidents.columns.failed}</TH>
              <TH>{t.executions.incidents.columns.workflow}</TH>
              <TH>{t.executions.incidents.columns.node}</TH>
              <TH>{t.executions.incidents.columns.summary}</TH>
              <TH>{t.executions.incidents.columns.state}</TH>
            </THead>
            <TBody>
              {items.map((incident) => (
                <IncidentRow
                  key={incident.id}
                  incident={incident}
                  pending={acknowledge.isPending && acknowledge.variables?.id === incident.id}
                  onAcknowledge={() => acknowledge.mutate({ id: incident.id })}
                />
              ))}
            </TBody>
          </Table>
          <LoadMoreFooter pages={pages} end={t.executions.incidents.end} errorTestId="incidents-more-error" />
        </>
      )}
    </>
  );
}
