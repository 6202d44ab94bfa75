'use client';

/**
 * A chart with its accessible twin: a "Table" toggle swaps the SVG for a real <table> (caption and
 * headers) holding the same figures and the same drill-down links, for screen readers and keyboards.
 */
import { useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';

export function ChartCard({ id, title, description, chart, table, empty, className }: { id: string; title: string; description?: string; chart: ReactNode; table: ReactNode; empty?: boolean; className?: string }) {
  const { t } = useI18n();
  const [asTable, setAsTable] = useState(false);
  return (
    <Card className={className ?? 'p-4'} data-testid={`chart-${id}`}>
      <section aria-labelledby={`chart-${id}-title`}>
        <div className="mb-3 flex items-start justify-between gap-3">
          <div>
            <h2 id={`chart-${id}-title`} className="text-sm font-semibold">
              {title}
            </h2>
            {description ? <p className="text-xs text-muted">{description}</p> : null}
          </div>
          {empty ? null : (
            <Button size="sm" variant="ghost" aria-pressed={asTable} aria-label={asTable ? t.dashboard.charts.chartToggle(title) : t.dashboard.charts.tableToggle(title)} onClick={() => setAsTable(!asTable)} data-testid={`chart-${id}-toggle`}>
              {asTable ? t.dashboard.charts.showChart : t.dashboard.charts.showTable}
            </Button>
          )}
        </div>
        {empty ? <p className="py-10 text-center text-sm text-muted">{t.dashboard.charts.noData}</p> : asTable ? table : <div className="h-56 w-full">{chart}</div>}
      </section>
    </Card>
  );
}

/** Recharts' tooltip in the theme's colours (CSS variables: no re-render on a theme switch). */
export const tooltipStyle = {
  contentStyle: { background: 'var(--surface)', border: '1px solid var(--line)', borderRadius: 8, color: 'var(--fg)', fontSize: 12 },
  labelStyle: { color: 'var(--fg)', fontWeight: 600 },
  itemStyle: { color: 'var(--fg)' },
  cursor: { fill: 'var(--subtle)' },
} as const;

export const axisProps = {
  stroke: 'var(--line-strong)',
  tick: { fill: 'var(--muted)', fontSize: 11 },
  tickLine: false,
} as const;
