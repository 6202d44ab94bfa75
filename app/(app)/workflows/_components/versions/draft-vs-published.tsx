'use client';

/**
 * What publishing the draft would change: the diff between the published version (the one triggers
 * start now) and the draft, meant for the publish dialog. Never published: every node of the draft is
 * new, shown as added. `workflow` needs its id, draft `graph` and `publishedVersion`; pass a `graph`
 * of its own when the builder holds a newer draft than the one loaded.
 */
import { useMemo } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { useWorkflowVersion, type WorkflowDetail } from '../../_lib/api';
import { diffGraphs } from '../../_lib/graph-diff';
import { GraphDiffView } from './graph-diff-view';

export interface DraftVsPublishedProps {
  workflow: Pick<WorkflowDetail, 'id' | 'graph' | 'publishedVersion'>;
  /** The draft to compare, when newer than `workflow.graph` (default `workflow.graph`). */
  graph?: unknown;
  className?: string;
}

export function DraftVsPublished({ workflow, graph, className }: DraftVsPublishedProps) {
  const { t } = useI18n();
  const draft = graph ?? workflow.graph;
  const published = workflow.publishedVersion;
  const version = useWorkflowVersion(workflow.id, published?.id ?? null);
  const diff = useMemo(() => {
    if (!published) return diffGraphs(null, draft);
    return version.data ? diffGraphs(version.data.version.graph, draft) : null;
  }, [published, version.data, draft]);

  return (
    <section className={cn('space-y-2', className)} data-testid="draft-vs-published">
      <div>
        <h3 className="text-sm font-semibold">{published ? t.versions.draftVsPublished.title(published.number) : t.versions.draftVsPublished.firstTitle}</h3>
        <p className="text-xs text-muted">{published ? t.versions.draftVsPublished.description : t.versions.draftVsPublished.firstDescription}</p>
      </div>
      {published && version.isPending ? (
        <LoadingState rows={2} />
      ) : published && version.isError ? (
        <ErrorState error={version.error} onRetry={() => version.refetch()} testId="draft-vs-published-error" />
      ) : diff ? (
        <GraphDiffView diff={diff} />
      ) : null}
    </section>
  );
}
