'use client';

/** The member's workflows with their status, trigger and published version; new drafts from JSON. */
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDate, formatDateTime } from '@/app/lib/format';
import { StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { PlusIcon, WorkflowIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { workflowStatusTone } from '../executions/_lib/status';
import { CreateWorkflowDialog } from './_components/create-workflow-dialog';
import { useWorkflowList, type Workflow } from './_lib/api';
import { triggerLabel } from './_lib/labels';

function WorkflowsTable({ workflows }: { workflows: Workflow[] }) {
  const { t, locale } = useI18n();
  return (
    <Table caption={t.workflows.title}>
      <THead>
        <TH>{t.workflows.columns.name}</TH>
        <TH>{t.workflows.columns.status}</TH>
        <TH>{t.workflows.columns.trigger}</TH>
        <TH>{t.workflows.columns.version}</TH>
        <TH>{t.workflows.columns.updated}</TH>
      </THead>
      <TBody>
        {workflows.map((workflow) => (
          <TR key={workflow.id} data-testid="workflow-row" className="relative">
            <TD className="max-w-96">
              <Link
                href={`/workflows/${workflow.id}`}
                className="font-medium text-fg after:absolute after:inset-0 after:content-[''] hover:underline focus-visible:outline-none focus-visible:after:rounded-sm focus-visible:after:outline-2 focus-visible:after:outline-brand"
              >
                {workflow.name}
              </Link>
              {workflow.description ? (
                <p className="mt-0.5 truncate text-xs text-muted" title={workflow.description}>
                  {workflow.description}
                </p>
              ) : null}
            </TD>
            <TD>
              <StatusBadge tone={workflowStatusTone(workflow.status)}>{t.workflows.status[workflow.status] ?? workflow.status}</StatusBadge>
            </TD>
            <TD className="whitespace-nowrap">{triggerLabel(workflow.triggerType, t)}</TD>
            <TD className="whitespace-nowrap tabular-nums">
              {workflow.publishedVersion ? t.workflows.versionNumber(workflow.publishedVersion.number) : <span className="text-muted">{t.workflows.noVersion}</span>}
            </TD>
            <TD className="whitespace-nowrap text-muted" title={formatDateTime(workflow.updatedAt, locale)}>
              {formatDate(workflow.updatedAt, locale)}
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

export function WorkflowsView() {
  const { t } = useI18n();
  const workflows = useWorkflowList();
  const [createOpen, setCreateOpen] = useState(false);
  const createButton = (
    <Button variant="primary" onClick={() => setCreateOpen(true)}>
      <PlusIcon />
      {t.workflows.newWorkflow}
    </Button>
  );
  return (
    <>
      <PageHeader title={t.workflows.title} description={t.workflows.description} actions={createButton} />
      {workflows.isPending ? (
        <LoadingState />
      ) : workflows.isError ? (
        <ErrorState error={workflows.error} onRetry={() => workflows.refetch()} testId="workflows-error" />
      ) : workflows.data.workflows.length === 0 ? (
        <EmptyState icon={<WorkflowIcon size={18} />} title={t.workflows.empty.title} body={t.workflows.empty.body} action={createButton} />
      ) : (
        <WorkflowsTable workflows={workflows.data.workflows} />
      )}
      <CreateWorkflowDialog open={createOpen} onOpenChange={setCreateOpen} />
    </>
  );
}
