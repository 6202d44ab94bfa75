'use client';

/** The key figures with their change against the previous period (arrow, amount, colour by meaning). */
import { useEffect } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { RouterOutputs } from '@/app/lib/trpc';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { ArrowDownIcon, ArrowUpIcon } from '@/app/ui/icons';
import { formatDuration } from '../executions/_lib/status';
import { changeOf, type Meaning } from './change';
import { formatChange, formatCount, formatRate, formatUsd } from './format';

type Executions = RouterOutputs['dashboard']['executions'];
type Mail = RouterOutputs['dashboard']['mail'];
type Ai = RouterOutputs['dashboard']['ai'];

/** Performance mark set when the KPI cards first show (read by e2e/ui/dashboard.spec.ts). */
export const kpisShownMark = 'dashboard:kpis-shown';

export const kpiKeys = ['runs', 'successRate', 'medianDuration', 'mailReceived', 'dispatched', 'draftsPrepared', 'sentByWorkflows', 'aiSpend'] as const;
export type KpiKey = (typeof kpiKeys)[number];

interface Kpi {
  key: KpiKey;
  current: number | null;
  previous: number | null;
  meaning: Meaning;
  kind: 'count' | 'rate';
  format: (value: number | null) => string;
  note?: string;
}

const dispatched = (mail: Mail['current']) => mail.byOutcome.find((entry) => entry.outcome === 'dispatched')?.count ?? 0;

const toneClass = {
  good: 'text-emerald-700 dark:text-emerald-400',
  bad: 'text-red-700 dark:text-red-400',
  neutral: 'text-muted',
} as const;

/** `ai` missing: its figures could not be read (the AI spend card shows a dash). */
export function KpiCards({ executions, mail, ai }: { executions: Executions; mail: Mail; ai?: Ai }) {
  const { t, locale } = useI18n();
  const texts = t.dashboard.kpis;
  // When the figures first show on this page load: the e2e journey reads it as the first render time.
  useEffect(() => {
    if (typeof performance !== 'undefined' && performance.getEntriesByName(kpisShownMark).length === 0) performance.mark(kpisShownMark);
  }, []);
  const count = (value: number | null) => (value === null ? '—' : formatCount(value, locale));
  const kpis: Kpi[] = [
    { key: 'runs', current: executions.current.total, previous: executions.previous.total, meaning: 'neutral', kind: 'count', format: count },
    { key: 'successRate', current: executions.current.successRate, previous: executions.previous.successRate, meaning: 'upIsGood', kind: 'rate', format: (value) => formatRate(value, locale) },
    {
      key: 'medianDuration',
      current: executions.current.medianDurationMs,
      previous: executions.previous.medianDurationMs,
      meaning: 'downIsGood',
      kind: 'count',
      format: (value) => (value === null ? '—' : formatDuration(value, locale)),
    },
    { key: 'mailReceived', current: mail.current.received, previous: mail.previous.received, meaning: 'neutral', kind: 'count', format: count },
    { key: 'dispatched', current: dispatched(mail.current), previous: dispatched(mail.previous), meaning: 'neutral', kind: 'count', format: count },
    { key: 'draftsPrepared', current: mail.current.draftsPrepared, previous: mail.previous.draftsPrepared, meaning: 'upIsGood', kind: 'count', format: count },
    { key: 'sentByWorkflows', current: mail.current.sentByWorkflows, previous: mail.previous.sentByWorkflows, meaning: 'upIsGood', kind: 'count', format: count },
    {
      key: 'aiSpend',
      current: ai ? ai.current.costUsd : null,
      previous: ai ? ai.previous.costUsd : null,
      meaning: 'downIsGood',
      kind: 'count',
      format: (value) => (value === null ? '—' : formatUsd(value, locale)),
      note: ai && ai.current.unpricedCalls > 0 ? texts.unpriced(ai.current.unpricedCalls) : undefined,
    },
  ];
  return (
    <section aria-label={texts.label} className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="kpi-cards">
      {kpis.map((kpi) => {
        const change = changeOf(kpi.current, kpi.previous, kpi.meaning, kpi.kind);
        const label = texts[kpi.key];
        const directionWord = change.direction === 'up' ? texts.up : change.direction === 'down' ? texts.down : texts.unchanged;
        return (
          <Card key={kpi.key} className="p-4" data-testid={`kpi-${kpi.key}`}>
            <h3 className="text-xs font-medium text-muted">{label}</h3>
            <p className="mt-1 text-2xl font-semibold tracking-tight tabular-nums" data-testid={`kpi-${kpi.key}-value`}>
              {kpi.format(kpi.current)}
            </p>
            <p className={cn('mt-1 flex items-center gap-1 text-xs', toneClass[change.tone])} data-testid={`kpi-${kpi.key}-change`} data-tone={change.tone} title={texts.previous(kpi.format(kpi.previous))}>
              {change.amount === null ? (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="sr-only">{texts.noPrevious}</span>
                </>
              ) : (
                <>
                  {change.direction === 'up' ? <ArrowUpIcon size={12} aria-hidden="true" /> : change.direction === 'down' ? <ArrowDownIcon size={12} aria-hidden="true" /> : null}
                  <span className="sr-only">{directionWord} </span>
                  <span className="tabular-nums">{formatChange(change.amount, change.unit, locale, texts.points)}</span>
                  <span className="sr-only">, {texts.previous(kpi.format(kpi.previous))}</span>
                </>
              )}
            </p>
            {kpi.note ? <p className="mt-0.5 text-xs text-muted">{kpi.note}</p> : null}
          </Card>
        );
      })}
    </section>
  );
}

export function KpiSkeleton() {
  const { t } = useI18n();
  return (
    <div role="status" aria-live="polite" className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="kpi-loading">
      <span className="sr-only">{t.common.loading}</span>
      {kpiKeys.map((key) => (
        <Card key={key} className="p-4">
          <div className="h-3 w-1/2 animate-pulse rounded bg-subtle" />
          <div className="mt-3 h-6 w-1/3 animate-pulse rounded bg-subtle" />
          <div className="mt-2 h-3 w-1/4 animate-pulse rounded bg-subtle" />
        </Card>
      ))}
    </div>
  );
}
