'use client';

/**
 * The dashboard's charts (recharts): runs per bucket stacked by status, mail received against
 * dispatched, and AI spend by model, purpose and member. Every bar opens the list it counts
 * (links.ts); colours are CSS variables (globals.css `--chart-*`), so dark mode needs no re-render.
 */
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useI18n } from '@/app/i18n/client';
import type { RouterOutputs } from '@/app/lib/trpc';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { axisProps, ChartCard, tooltipStyle } from './chart-card';
import { formatBucket, formatCount, formatUsd, spansDays } from './format';
import { bucketRange, executionsHref, journalHref } from './links';

type Executions = RouterOutputs['dashboard']['executions'];
type Mail = RouterOutputs['dashboard']['mail'];
type Ai = RouterOutputs['dashboard']['ai'];
type Window = Executions['window'];

const linkClass = 'font-medium text-brand-fg underline-offset-2 hover:underline';

/** A table view's count: a link to the list it counted, or a plain 0 (nothing to open). */
function CountCell({ value, href, label }: { value: number; href: string; label?: string }) {
  const { locale } = useI18n();
  return (
    <TD className="text-right tabular-nums">
      {value > 0 ? (
        <Link className={linkClass} href={href} aria-label={label === undefined ? undefined : `${formatCount(value, locale)} — ${label}`}>
          {formatCount(value, locale)}
        </Link>
      ) : (
        '0'
      )}
    </TD>
  );
}

function useBucketLabels(window: Window, tz: string) {
  const { locale } = useI18n();
  const withDay = window.bucket === 'hour' && spansDays(window.buckets, tz);
  return window.buckets.map((start) => formatBucket(start, window.bucket, tz, locale, withDay));
}

export function RunsChart({ data, tz, workflowId }: { data: Executions; tz: string; workflowId?: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const labels = useBucketLabels(data.window, tz);
  const series = data.series.filter((line) => line.values.some((value) => value > 0));
  const rows = labels.map((label, index) => ({ label, index, ...Object.fromEntries(series.map((line) => [line.status, line.values[index] ?? 0])) }));
  const href = (status: string, index: number) => executionsHref({ workflowId, status, range: bucketRange(data.window, index) });
  const texts = t.dashboard.charts;
  return (
    <ChartCard
      id="runs"
      title={texts.runs.title}
      description={texts.runs.description}
      empty={series.length === 0}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke="var(--line)" />
            <XAxis dataKey="label" {...axisProps} minTickGap={12} />
            <YAxis allowDecimals={false} {...axisProps} axisLine={false} />
            <Tooltip {...tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12, color: 'var(--muted)' }} />
            {series.map((line) => (
              <Bar
                key={line.status}
                dataKey={line.status}
                name={t.executions.status[line.status] ?? line.status}
                stackId="runs"
                fill={`var(--chart-${line.status})`}
                cursor="pointer"
                isAnimationActive={false}
                onClick={(_, index) => router.push(href(line.status, index))}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <Table caption={texts.runs.title}>
          <THead>
            <TH>{texts.bucket}</TH>
            {series.map((line) => (
              <TH key={line.status} className="text-right">
                {t.executions.status[line.status] ?? line.status}
              </TH>
            ))}
          </THead>
          <TBody>
            {rows.map((row) => (
              <TR key={row.index}>
                <TH scope="row" className="text-fg">
                  {row.label}
                </TH>
                {series.map((line) => {
                  const value = line.values[row.index] ?? 0;
                  return (
                    <CountCell key={line.status} value={value} href={href(line.status, row.index)} label={texts.openRuns(t.executions.status[line.status] ?? line.status, row.label)} />
                  );
                })}
              </TR>
            ))}
          </TBody>
        </Table>
      }
    />
  );
}

export function MailChart({ data, tz }: { data: Mail; tz: string }) {
  const { t } = useI18n();
  const router = useRouter();
  const labels = useBucketLabels(data.window, tz);
  const texts = t.dashboard.charts;
  const rows = labels.map((label, index) => ({ label, index, received: data.series.received[index] ?? 0, dispatched: data.series.dispatched[index] ?? 0 }));
  const href = (key: 'received' | 'dispatched', index: number) => journalHref({ outcome: key === 'dispatched' ? 'dispatched' : null, range: bucketRange(data.window, index) });
  const keys = ['received', 'dispatched'] as const;
  return (
    <ChartCard
      id="mail"
      title={texts.mail.title}
      description={texts.mail.description}
      empty={rows.every((row) => row.received === 0 && row.dispatched === 0)}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={rows} margin={{ top: 4, right: 4, bottom: 0, left: -16 }}>
            <CartesianGrid vertical={false} stroke="var(--line)" />
            <XAxis dataKey="label" {...axisProps} minTickGap={12} />
            <YAxis allowDecimals={false} {...axisProps} axisLine={false} />
            <Tooltip {...tooltipStyle} />
            <Legend wrapperStyle={{ fontSize: 12, color: 'var(--muted)' }} />
            {keys.map((key) => (
              <Bar key={key} dataKey={key} name={texts.mail[key]} fill={`var(--chart-${key})`} cursor="pointer" isAnimationActive={false} onClick={(_, index) => router.push(href(key, index))} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <Table caption={texts.mail.title}>
          <THead>
            <TH>{texts.bucket}</TH>
            <TH className="text-right">{texts.mail.received}</TH>
            <TH className="text-right">{texts.mail.dispatched}</TH>
          </THead>
          <TBody>
            {rows.map((row) => (
              <TR key={row.index}>
                <TH scope="row" className="text-fg">
                  {row.label}
                </TH>
                {keys.map((key) => (
                  <CountCell key={key} value={row[key]} href={href(key, row.index)} />
                ))}
              </TR>
            ))}
          </TBody>
        </Table>
      }
    />
  );
}

interface SpendRow {
  key: string;
  label: string;
  calls: number;
  costUsd: number;
}

/** One breakdown of AI spend, largest first (at most 10 bars). */
export function SpendChart({ id, title, column, rows }: { id: string; title: string; column: string; rows: SpendRow[] }) {
  const { t, locale } = useI18n();
  const texts = t.dashboard.charts;
  const sorted = [...rows].sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls).slice(0, 10);
  return (
    <ChartCard
      id={id}
      title={title}
      empty={sorted.length === 0}
      chart={
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={sorted} layout="vertical" margin={{ top: 4, right: 12, bottom: 0, left: 8 }}>
            <CartesianGrid horizontal={false} stroke="var(--line)" />
            <XAxis type="number" {...axisProps} tickFormatter={(value: number) => formatUsd(value, locale)} />
            <YAxis type="category" dataKey="label" width={120} {...axisProps} axisLine={false} />
            <Tooltip {...tooltipStyle} formatter={(value) => formatUsd(Number(value), locale)} />
            <Bar dataKey="costUsd" name={texts.cost} fill="var(--chart-spend)" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      }
      table={
        <Table caption={title}>
          <THead>
            <TH>{column}</TH>
            <TH className="text-right">{texts.calls}</TH>
            <TH className="text-right">{texts.cost}</TH>
          </THead>
          <TBody>
            {sorted.map((row) => (
              <TR key={row.key}>
                <TH scope="row" className="text-fg">
                  {row.label}
                </TH>
                <TD className="text-right tabular-nums">{formatCount(row.calls, locale)}</TD>
                <TD className="text-right tabular-nums">{formatUsd(row.costUsd, locale)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      }
    />
  );
}

export function AiCharts({ data, showMembers }: { data: Ai; showMembers: boolean }) {
  const { t } = useI18n();
  const texts = t.dashboard.charts;
  return (
    <>
      <SpendChart id="ai-model" title={texts.aiByModel.title} column={texts.aiByModel.column} rows={data.byModel.map((row) => ({ key: `${row.provider}:${row.model}`, label: row.model, calls: row.calls, costUsd: row.costUsd }))} />
      <SpendChart id="ai-purpose" title={texts.aiByPurpose.title} column={texts.aiByPurpose.column} rows={data.byPurpose.map((row) => ({ key: row.purpose, label: row.purpose, calls: row.calls, costUsd: row.costUsd }))} />
      {showMembers ? (
        <SpendChart
          id="ai-member"
          title={texts.aiByMember.title}
          column={texts.aiByMember.column}
          rows={data.byMember.map((row) => ({ key: row.memberId, label: row.memberName ?? '—', calls: row.calls, costUsd: row.costUsd }))}
        />
      ) : null}
    </>
  );
}
