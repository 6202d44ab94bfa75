'use client';

/**
 * A workflow's published versions, newest first, the one triggers start marked; per version "Compare
 * with draft" (a diff of that version against `draftGraph`, the draft as the builder holds it now)
 * and "Restore as draft" (confirmed; the version's graph becomes the draft, the published version
 * stays). `draftRevision`, when given, is sent with the restore so a draft changed elsewhere is not
 * overwritten silently (409 shown in the dialog). `onRestored` receives the new draft and revision.
 */
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { ListIcon, UndoIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useWorkflowMutations, useWorkflowsCache, useWorkflowVersion, useWorkflowVersions, type RestoredDraft, type WorkflowVersion } from '../../_lib/api';
import { diffGraphs } from '../../_lib/graph-diff';
import { GraphDiffView } from './graph-diff-view';

export interface VersionsListProps {
  workflowId: string;
  /** The draft as the caller holds it (what "Compare with draft" compares each version with). */
  draftGraph: unknown;
  /** The draft revision the caller holds; sent with a restore (409 when the draft changed elsewhere). */
  draftRevision?: number;
  /** An archived workflow: versions can be compared, not restored. */
  readOnly?: boolean;
  onRestored?: (answer: RestoredDraft) => void;
}

function CompareBody({ workflowId, version, draftGraph }: { workflowId: string; version: WorkflowVersion; draftGraph: unknown }) {
  const detail = useWorkflowVersion(workflowId, version.id);
  const diff = useMemo(() => (detail.data ? diffGraphs(detail.data.version.graph, draftGraph) : null), [detail.data, draftGraph]);
  if (detail.isPending) return <LoadingState rows={3} />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => detail.refetch()} testId="version-compare-error" />;
  return <GraphDiffView diff={diff!} />;
}

function CompareDialog({ workflowId, version, draftGraph, onClose }: { workflowId: string; version: WorkflowVersion | null; draftGraph: unknown; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={version !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {version ? (
        <DialogContent size="lg" title={t.versions.list.compareTitle(version.number)} description={t.versions.list.compareDescription}>
          <DialogBody>
            <CompareBody workflowId={workflowId} version={version} draftGraph={draftGraph} />
          </DialogBody>
          <DialogFooter>
            <DialogClose asChild>
              <Button>{t.common.close}</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function RestoreDialog({
  workflowId,
  version,
  draftRevision,
  onClose,
  onRestored,
}: {
  workflowId: string;
  version: WorkflowVersion | null;
  draftRevision?: number;
  onClose: () => void;
  onRestored?: (answer: RestoredDraft) => void;
}) {
  const { t } = useI18n();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const restore = useMutation({
    ...mutations.restoreVersion,
    onSuccess: async (answer) => {
      await cache.refresh();
      onRestored?.(answer);
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open={version !== null}
      onOpenChange={(open) => {
        if (open) return;
        restore.reset();
        onClose();
      }}
      tone="primary"
      title={version ? t.versions.list.restoreTitle(version.number) : ''}
      description={t.versions.list.restoreBody}
      confirmLabel={t.versions.list.restoreConfirm}
      pending={restore.isPending}
      error={
        restore.isError ? (
          <Alert tone="danger" testId="version-restore-error">
            {describeError(restore.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => version && restore.mutate({ id: workflowId, versionId: version.id, ...(draftRevision === undefined ? {} : { draftRevision }) })}
    />
  );
}

export function VersionsList({ workflowId, draftGraph, draftRevision, readOnly = false, onRestored }: VersionsListProps) {
  const { t, locale } = useI18n();
  const versions = useWorkflowVersions(workflowId);
  const [comparing, setComparing] = useState<WorkflowVersion | null>(null);
  const [restoring, setRestoring] = useState<WorkflowVersion | null>(null);
  const [restored, setRestored] = useState<number | null>(null);

  if (versions.isPending) return <LoadingState rows={2} />;
  if (versions.isError) return <ErrorState error={versions.error} onRetry={() => versions.refetch()} testId="versions-error" />;
  if (versions.data.versions.length === 0) {
    return <EmptyState icon={<ListIcon size={18} />} title={t.versions.list.empty.title} body={t.versions.list.empty.body} />;
  }
  return (
    <div className="space-y-3">
      {restored !== null ? (
        <Alert tone="success" testId="version-restored">
          {t.versions.list.restored(restored)}
        </Alert>
      ) : null}
      <Table caption={t.versions.list.title}>
        <THead>
          <TH>{t.versions.list.columns.version}</TH>
          <TH>{t.versions.list.columns.note}</TH>
          <TH>{t.versions.list.columns.date}</TH>
          <TH className="text-right">{t.versions.list.columns.actions}</TH>
        </THead>
        <TBody>
          {versions.data.versions.map((version) => (
            <TR key={version.id} data-testid="version-row" data-published={version.published}>
              <TD className="whitespace-nowrap font-medium tabular-nums">
                <span className="inline-flex items-center gap-2">
                  {t.versions.list.number(version.number)}
                  {version.published ? (
                    <Badge tone="success" title={t.versions.list.publishedHint}>
                      {t.versions.list.published}
                    </Badge>
                  ) : null}
                </span>
              </TD>
              <TD className="max-w-xs text-muted">{version.note ? <span className="line-clamp-2">{version.note}</span> : <span className="italic">{t.versions.list.noNote}</span>}</TD>
              <TD className="whitespace-nowrap text-muted">{formatDateTime(version.createdAt, locale)}</TD>
              <TD className="whitespace-nowrap text-right">
                <span className="inline-flex gap-1.5">
                  <Button size="sm" variant="ghost" aria-label={t.versions.list.compareOf(version.number)} data-testid="version-compare" onClick={() => setComparing(version)}>
                    {t.versions.list.compare}
                  </Button>
                  {readOnly ? null : (
                    <Button
                      size="sm"
                      aria-label={t.versions.list.restoreOf(version.number)}
                      data-testid="version-restore"
                      onClick={() => {
                        setRestored(null);
                        setRestoring(version);
                      }}
                    >
                      <UndoIcon size={14} />
                      {t.versions.list.restore}
                    </Button>
                  )}
                </span>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
      <CompareDialog workflowId={workflowId} version={comparing} draftGraph={draftGraph} onClose={() => setComparing(null)} />
      <RestoreDialog
        workflowId={workflowId}
        version={restoring}
        draftRevision={draftRevision}
        onClose={() => setRestoring(null)}
        onRestored={(answer) => {
          setRestored(answer.restoredFrom.number);
          onRestored?.(answer);
        }}
      />
    </div>
  );
}
