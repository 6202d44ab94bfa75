'use client';

/**
 * The mailbox analyzer: choose a mailbox, Analyze, follow the progress live (`analyzer.progress`,
 * and a poll while the report is pending or running), then the figures, the mail per hour (CSS
 * bars), the sender groups and the proposed automations, each with "Create this workflow", which
 * installs the draft and opens it in the builder.
 */
import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { useRealtimeEvent } from '@/app/lib/realtime';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { Label, Select } from '@/app/ui/field';
import { PageHeader } from '@/app/ui/page-header';
import { ProgressBar } from '@/app/ui/progress';
import { useAnalyze, useAnalyzerMailboxes, useAnalyzerReport, useCreateAnalyzerWorkflow, useRefreshAnalyzerReport, type Report } from './_lib/api';

const pollMs = 1_500;
const isActive = (report: Pick<Report, 'status'> | null | undefined) => report?.status === 'pending' || report?.status === 'running';
const windows = [30, 90, 180, 365] as const;

export function AnalyzerView() {
  const { t } = useI18n();
  const strings = t.analyzer;
  const router = useRouter();
  const mailboxes = useAnalyzerMailboxes();
  const list = mailboxes.data?.mailboxes ?? [];
  const [chosen, setChosen] = useState<string | null>(null);
  const mailboxId = chosen ?? list[0]?.id ?? null;
  const [windowDays, setWindowDays] = useState<(typeof windows)[number]>(30);

  const report = useAnalyzerReport(mailboxId, (current) => (isActive(current) ? pollMs : false));
  const refresh = useRefreshAnalyzerReport(mailboxId);
  useRealtimeEvent('analyzer.progress', (payload) => {
    if (payload.mailboxId === mailboxId) void refresh();
  });
  const analyze = useAnalyze(refresh);
  const create = useCreateAnalyzerWorkflow((workflowId) => router.push(`/workflows/${workflowId}`));

  const current = report.data?.report ?? null;
  const neverAnalysed = appErrorOf(report.error)?.code === 'analyzer.report_not_found';
  const body = current?.body ?? null;
  const outcome = current?.llmOutcome ?? null;
  const maxHour = Math.max(1, ...(body?.stats.peakHours.map((item) => item.volume) ?? [1]));
  const error = analyze.error ?? create.error ?? (neverAnalysed ? null : report.error);

  return (
    <div className="flex flex-col gap-6" data-testid="analyzer">
      <PageHeader title={strings.title} description={strings.description} />
      {mailboxes.isSuccess && list.length === 0 ? <Alert tone="info" testId="analyzer-no-mailbox">{strings.noMailbox}</Alert> : null}
      {list.length > 0 ? (
        <Card className="flex flex-wrap items-end gap-4 p-4">
          <div className="flex flex-col gap-1">
            <Label htmlFor="analyzer-mailbox">{strings.mailbox}</Label>
            <Select id="analyzer-mailbox" value={mailboxId ?? ''} onChange={(event) => setChosen(event.target.value)} data-testid="analyzer-mailbox">
              {list.map((mailbox) => (
                <option key={mailbox.id} value={mailbox.id}>
                  {mailbox.address}
                </option>
              ))}
            </Select>
          </div>
          <div className="flex flex-col gap-1">
            <Label htmlFor="analyzer-window">{strings.windowDays}</Label>
            <Select id="analyzer-window" value={windowDays} onChange={(event) => setWindowDays(Number(event.target.value) as (typeof windows)[number])}>
              {windows.map((days) => (
                <option key={days} value={days}>
                  {strings.days(days)}
                </option>
              ))}
            </Select>
          </div>
          <Button
            variant="primary"
            loading={analyze.isPending}
            disabled={!mailboxId || isActive(current)}
            onClick={() => mailboxId && analyze.mutate({ id: mailboxId, windowDays, force: Boolean(current) })}
            data-testid="analyzer-start"
          >
            {analyze.isPending ? strings.starting : current ? strings.analyzeAgain : strings.analyze}
          </Button>
        </Card>
      ) : null}

      {error ? <Alert tone="danger" testId="analyzer-error">{describeError(error, t)}</Alert> : null}
      {neverAnalysed ? <p className="text-sm text-muted">{strings.never}</p> : null}

      {current ? (
        <div className="flex items-center gap-3" data-testid="analyzer-status">
          <Badge tone={current.status === 'failed' ? 'danger' : current.status === 'done' ? 'success' : 'brand'}>{strings.statuses[current.status] ?? current.status}</Badge>
          {isActive(current) ? (
            <div className="flex min-w-64 flex-col gap-1 text-sm text-muted">
              <span>
                {(current.progress.phase && strings.phases[current.progress.phase]) ?? ''}
                {current.progress.batches > 0 ? ` ${strings.batches(current.progress.batchesDone, current.progress.batches)}` : ''}
              </span>
              <ProgressBar value={current.progress.batches > 0 ? (100 * current.progress.batchesDone) / current.progress.batches : null} label={strings.statuses[current.status] ?? ''} />
            </div>
          ) : null}
        </div>
      ) : null}

      {body ? (
        <>
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">{strings.stats.title}</h2>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="analyzer-stats">
              {(['messages30d', 'messages90d', 'messages365d', 'senders', 'domains', 'groups', 'received30d', 'dispatched30d', 'unmatched30d', 'excluded30d'] as const).map((key) => (
                <div key={key}>
                  <dt className="text-xs text-muted">{strings.stats[key]}</dt>
                  <dd className="text-lg font-semibold tabular-nums">{body.stats[key].toLocaleString()}</dd>
                </div>
              ))}
            </dl>
          </Card>
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">{strings.peakHours}</h2>
            <div className="flex h-32 items-end gap-1" role="img" aria-label={strings.peakHours}>
              {body.stats.peakHours.map((item) => (
                // Each column takes the chart's full height; its bar is a share of the space above the hour's number.
                <div key={item.hour} className="flex h-full flex-1 flex-col items-center gap-1" title={`${item.hour}:00 — ${item.volume}`} data-testid="analyzer-hour" data-volume={item.volume}>
                  <div className="relative w-full flex-1">
                    <div className="absolute inset-x-0 bottom-0 rounded-t bg-brand" style={{ height: `${Math.round((100 * item.volume) / maxHour)}%` }} data-testid="analyzer-hour-bar" />
                  </div>
                  <span className="text-[10px] text-muted">{item.hour}</span>
                </div>
              ))}
            </div>
          </Card>
          {outcome ? (
            <Alert tone={outcome.status === "failed" ? "danger" : "info"} testId="analyzer-outcome">
              {strings.outcome[outcome.status]}
              {outcome.status === 'ran' && outcome.failedBatches > 0 ? ` ${strings.failedBatches(outcome.failedBatches, outcome.batches)}` : ''}
            </Alert>
          ) : null}
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">{strings.opportunities}</h2>
            {body.opportunities.length === 0 ? <p className="text-sm text-muted">{strings.noOpportunities}</p> : null}
            <ul className="flex flex-col gap-3" data-testid="analyzer-opportunities">
              {body.opportunities.map((opportunity) => (
                <li
                  key={opportunity.key}
                  className="flex flex-wrap items-start justify-between gap-3 rounded-lg border border-line p-3"
                  data-testid="analyzer-opportunity"
                  data-kind={opportunity.kind}
                  data-template={opportunity.template?.slug}
                >
                  <div className="min-w-0">
                    <p className="font-medium">
                      {opportunity.title}
                      {opportunity.template ? <span className="ml-2 rounded bg-subtle px-1.5 py-0.5 text-[11px] font-normal text-muted">{strings.starterTemplate}</span> : null}
                    </p>
                    <p className="text-sm text-muted">{opportunity.rationale}</p>
                    <p className="text-xs text-muted">
                      {strings.evidence(opportunity.evidence.messages)} · {opportunity.evidence.groups.map((group) => group.label).join(', ')}
                    </p>
                    {opportunity.evidence.sampleSubjects.length > 0 ? (
                      <ul className="mt-1.5 space-y-0.5 border-l-2 border-line pl-2 text-xs text-muted" aria-label={strings.sampleSubjects}>
                        {opportunity.evidence.sampleSubjects.map((subject, index) => (
                          <li key={index} className="truncate">
                            {subject}
                          </li>
                        ))}
                      </ul>
                    ) : null}
                  </div>
                  <Button
                    size="sm"
                    variant="primary"
                    loading={create.isPending && create.variables?.key === opportunity.key}
                    onClick={() => mailboxId && create.mutate({ id: mailboxId, key: opportunity.key })}
                  >
                    {strings.create}
                  </Button>
                </li>
              ))}
            </ul>
          </Card>
          <Card className="p-4">
            <h2 className="mb-3 text-base font-semibold">{strings.groups}</h2>
            <ul className="flex flex-col gap-1 text-sm" data-testid="analyzer-groups">
              {body.groups.map((group) => (
                <li key={group.key} className="flex justify-between gap-3">
                  <span className="truncate">
                    <span className="text-muted mr-2 text-xs">{strings.groupKinds[group.kind] ?? group.kind}</span>
                    {group.label}
                  </span>
                  <span className="text-muted tabular-nums">{strings.groupVolume(group.volume, group.senders)}</span>
                </li>
              ))}
            </ul>
          </Card>
        </>
      ) : null}
    </div>
  );
}
