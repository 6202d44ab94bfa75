'use client';

/**
 * Top and failing workflows, and the recent failures with "Acknowledge" in place. Every row opens the
 * runs it counts (links.ts); a failure opens its run.
 */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime, formatListDate } from '@/app/lib/format';
import type { RouterOutputs } from '@/app/lib/trpc';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { formatCount } from './format';
import { executionsHref } from './links';

type Executions = RouterOutputs['dashboard']['executions'];
type WorkflowFigures = Executions['topWorkflows'][number];
type Failure = Executions['recentFailures'][number];

/** A row-wide link: the first cell's link covers the row, so a click anywhere opens it. */
const rowLink =
  "after:absolute after:inset-0 after:content-[''] focus-visible:outline-none focus-visible:after:rounded-sm focus-visible:after:outline-2 focus-visible:after:outline-brand";

function Section({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} data-testid={id}>
      <h2 id={`${id}-title`} className="mb-2 text-sm font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Empty({ text }: { text: string }) {
  return <Card className="px-4 py-8 text-center text-sm text-muted">{text}</Card>;
}

export function WorkflowTable({ kind, rows, window, showOwner }: { kind: 'top' | 'failing'; rows: WorkflowFigures[]; window: Executions['window']; showOwner: boolean }) {
  const { t, locale } = useI18n();
  const texts = t.dashboard.tables;
  const title = texts[kind].title;
  return (
    <Section id={`${kind}-workflows`} title={title}>
      {rows.length === 0 ? (
        <Empty text={texts[kind].empty} />
      ) : (
        <Table caption={title}>
          <THead>
            <TH>{texts.workflow}</TH>
            {showOwner ? <TH>{texts.owner}</TH> : null}
            <TH className="text-right">{texts.runs}</TH>
            <TH className="text-right">{texts.succeeded}</TH>
            <TH className="text-right">{texts.failed}</TH>
            <TH className="text-right">{texts.lastRun}</TH>
          </THead>
          <TBody>
            {rows.map((row) => (
              <TR key={row.workflowId} className="relative" data-testid={`${kind}-workflow-row`} data-workflow-id={row.workflowId}>
                <TD className="max-w-64">
                  <Link
                    href={executionsHref({ workflowId: row.workflowId, status: kind === 'failing' ? 'failed' : null, range: { from: window.from, to: window.to } })}
                    className={`block truncate font-medium ${rowLink}`}
                  >
                    {row.name || texts.deletedWorkflow}
                  </Link>
                </TD>
                {showOwner ? <TD className="text-muted">{row.memberName ?? '—'}</TD> : null}
                <TD className="text-right tabular-nums">{formatCount(row.total, locale)}</TD>
                <TD className="text-right tabular-nums">{formatCount(row.succeeded, locale)}</TD>
                <TD className="text-right tabular-nums">{formatCount(row.failed, locale)}</TD>
                <TD className="text-right whitespace-nowrap text-muted" title={row.lastRunAt ? formatDateTime(row.lastRunAt, locale) : undefined}>
                  {row.lastRunAt ? formatListDate(row.lastRunAt, locale) : '—'}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Section>
  );
}

export function RecentFailures({ rows, showOwner, onAcknowledge, pendingIncidentId }: { rows: Failure[]; showOwner: boolean; onAcknowledge: (incidentId: string) => void; pendingIncidentId: string | null }) {
  const { t, locale } = useI18n();
  const texts = t.dashboard.failures;
  return (
    <Section id="recent-failures" title={texts.title}>
      {rows.length === 0 ? (
        <Empty text={texts.empty} />
      ) : (
        <Table caption={texts.title}>
          <THead>
            <TH>{t.dashboard.tables.workflow}</TH>
            {showOwner ? <TH>{t.dashboard.tables.owner}</TH> : null}
            <TH>{texts.when}</TH>
            <TH>{texts.error}</TH>
            <TH>{texts.node}</TH>
            <TH className="text-right">
              <span className="sr-only">{texts.acknowledge}</span>
            </TH>
          </THead>
          <TBody>
            {rows.map((row) => (
              <TR key={row.executionId} data-testid="recent-failure-row" data-acknowledged={row.acknowledged}>
                <TD className="max-w-56">
                  <Link href={`/executions/${row.executionId}`} className="block truncate font-medium text-brand-fg underline-offset-2 hover:underline" aria-label={`${texts.open}: ${row.workflowName}`}>
                    {row.workflowName || t.dashboard.tables.deletedWorkflow}
                  </Link>
                </TD>
                {showOwner ? <TD className="text-muted">{row.memberName ?? '—'}</TD> : null}
                <TD className="whitespace-nowrap text-muted" title={formatDateTime(row.failedAt, locale)}>
                  {formatListDate(row.failedAt, locale)}
                </TD>
                <TD className="max-w-80">
                  <span className="block truncate" title={row.errorSummary}>
                    <code className="mr-1 text-xs text-muted">{row.errorCode}</code>
                    {row.errorSummary}
                  </span>
                </TD>
                <TD className="max-w-40 truncate text-muted">{row.nodeName ?? row.nodeId ?? '—'}</TD>
                <TD className="text-right whitespace-nowrap">
                  {row.acknowledged ? (
                    <Badge tone="neutral">{texts.acknowledged}</Badge>
                  ) : row.incidentId ? (
                    <Button size="sm" loading={pendingIncidentId === row.incidentId} aria-label={texts.acknowledgeLabel(row.workflowName)} onClick={() => onAcknowledge(row.incidentId!)}>
                      {texts.acknowledge}
                    </Button>
                  ) : null}
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Section>
  );
}
