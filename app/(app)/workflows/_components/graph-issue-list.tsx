'use client';

/** The server's objections to a graph, each at its path (`nodes[1].params.url`). */
import { useI18n } from '@/app/i18n/client';
import { Alert } from '@/app/ui/alert';
import type { GraphIssue } from '../_lib/graph-issues';

export function GraphIssueList({ issues, testId = 'graph-issues' }: { issues: GraphIssue[]; testId?: string }) {
  const { t } = useI18n();
  if (issues.length === 0) return null;
  return (
    <Alert tone="danger" testId={testId} title={t.workflows.graphErrors.issuesTitle}>
      <ul className="mt-1 space-y-1">
        {issues.map((issue, index) => (
          <li key={index} data-testid="graph-issue" className="text-[13px]">
            <code className="rounded bg-red-100/70 px-1 font-mono text-xs dark:bg-red-900/40">{issue.path || t.workflows.graphErrors.root}</code>{' '}
            {issue.message}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
