'use client';

/** The lines of a CSV file the service refused, each with its reasons in the reader's language (at most 50 shown). */
import type { Dictionary } from '@/app/i18n';
import type { RejectedLine, Table } from '../../_lib/api';

const shownRejected = 50;

export function RejectedList({ rejected, count, table, t }: { rejected: RejectedLine[]; count: number; table: Table; t: Dictionary }) {
  const labelOf = (key: string | null) => (key ? (table.columns.find((column) => column.key === key)?.label ?? key) : null);
  return (
    <>
      <ul className="mt-2 max-h-56 space-y-1 overflow-y-auto rounded-md border border-line bg-surface px-3 py-2 text-[13px] text-fg">
        {rejected.slice(0, shownRejected).map((line) => (
          <li key={line.line} data-testid="import-rejected-line" className="flex gap-2">
            <span className="shrink-0 font-medium tabular-nums">{t.tables.importDialog.line(line.line)}</span>
            <span className="text-muted">
              {line.problems
                .map((problem) => {
                  const reason = (t.tables.problems as Record<string, string>)[problem.reason] ?? problem.message;
                  const label = labelOf(problem.column);
                  return label ? `${label}: ${reason}` : reason;
                })
                .join(' · ')}
            </span>
          </li>
        ))}
      </ul>
      {count > Math.min(rejected.length, shownRejected) ? (
        <p className="mt-1 text-xs">{t.tables.importDialog.moreRejected(count - Math.min(rejected.length, shownRejected))}</p>
      ) : null}
    </>
  );
}
