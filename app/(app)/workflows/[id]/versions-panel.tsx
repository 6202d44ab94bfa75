'use client';

/** The published versions, newest first; the one triggers start is marked. */
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Badge } from '@/app/ui/badge';
import { ListIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useWorkflowVersions } from '../_lib/api';
import { triggerLabel } from '../_lib/labels';

export function VersionsPanel({ workflowId }: { workflowId: string }) {
  const { t, locale } = useI18n();
  const versions = useWorkflowVersions(workflowId);
  if (versions.isPending) return <LoadingState rows={2} />;
  if (versions.isError) return <ErrorState error={versions.error} onRetry={() => versions.refetch()} testId="versions-error" />;
  if (versions.data.versions.length === 0) {
    return <EmptyState icon={<ListIcon size={18} />} title={t.workflows.versions.empty.title} body={t.workflows.versions.empty.body} />;
  }
  return (
    <Table caption={t.workflows.versions.title}>
      <THead>
        <TH>{t.workflows.versions.columns.number}</TH>
        <TH>{t.workflows.versions.columns.note}</TH>
        <TH>{t.workflows.versions.columns.trigger}</TH>
        <TH>{t.workflows.versions.columns.published}</TH>
      </THead>
      <TBody>
        {versions.data.versions.map((version) => (
          <TR key={version.id} data-testid="version-row">
            <TD className="whitespace-nowrap font-medium tabular-nums">
              <span className="inline-flex items-center gap-2">
                {t.workflows.versionNumber(version.number)}
                {version.published ? <Badge tone="success">{t.workflows.versions.current}</Badge> : null}
              </span>
            </TD>
            <TD className="max-w-md text-muted">{version.note || '—'}</TD>
            <TD className="whitespace-nowrap">{triggerLabel(version.triggerType, t)}</TD>
            <TD className="whitespace-nowrap text-muted">{formatDateTime(version.createdAt, locale)}</TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
