'use client';

/**
 * One workflow: its status and actions in the header, then the builder (its draft on a canvas), the
 * draft's JSON, its versions, its run settings and its webhook.
 */
import Link from 'next/link';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { errorCodeOf } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { StatusBadge } from '@/app/ui/badge';
import { ArrowLeftIcon, WorkflowIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { TabPanel, Tabs, useTabsId } from '@/app/ui/tabs';
import { workflowStatusTone } from '../../executions/_lib/status';
import { useWorkflow } from '../_lib/api';
import { triggerLabel } from '../_lib/labels';
import { WorkflowBuilder } from './builder/builder';
import { DraftSaverProvider } from './builder/draft-saver';
import { EvalRunsPanel, graphHasAiNodes, nodeNamesOf } from '../_components/eval/eval-runs-panel';
import { VersionsList } from '../_components/versions/versions-list';
import { GraphEditor } from './graph-editor';
import { SettingsPanel } from './settings-panel';
import { WebhookPanel } from './webhook-panel';
import { WorkflowActions } from './workflow-actions';

type Tab = 'graph' | 'evaluate' | 'json' | 'versions' | 'settings' | 'webhook';

export function WorkflowView({ id }: { id: string }) {
  const { t } = useI18n();
  const workflow = useWorkflow(id);
  const [tab, setTab] = useState<Tab>('graph');
  const tabsId = useTabsId();

  const back = (
    <Link href="/workflows" className="mb-3 inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg">
      <ArrowLeftIcon size={14} />
      {t.workflows.back}
    </Link>
  );

  if (workflow.isPending) {
    return (
      <>
        {back}
        <LoadingState rows={3} />
      </>
    );
  }
  if (workflow.isError) {
    return (
      <>
        {back}
        {errorCodeOf(workflow.error) === 'workflow.not_found' ? (
          <EmptyState icon={<WorkflowIcon size={18} />} title={t.workflows.notFound.title} body={t.workflows.notFound.body} />
        ) : (
          <ErrorState error={workflow.error} onRetry={() => workflow.refetch()} testId="workflow-error" />
        )}
      </>
    );
  }

  const data = workflow.data.workflow;
  const archived = data.status === 'archived';
  const tabs = [
    { value: 'graph' as const, label: t.workflows.tabs.graph },
    { value: 'evaluate' as const, label: t.workflows.tabs.evaluate },
    { value: 'json' as const, label: t.workflows.tabs.json },
    { value: 'versions' as const, label: t.workflows.tabs.versions },
    { value: 'settings' as const, label: t.workflows.tabs.settings },
    { value: 'webhook' as const, label: t.workflows.tabs.webhook },
  ];

  return (
    <DraftSaverProvider>
      {back}
      <header className="mb-5 flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-xl font-semibold tracking-tight break-words">{data.name}</h1>
            <StatusBadge tone={workflowStatusTone(data.status)}>
              <span data-testid="workflow-status">{t.workflows.status[data.status] ?? data.status}</span>
            </StatusBadge>
          </div>
          <p className="text-sm text-muted">
            {triggerLabel(data.triggerType, t)}
            {' · '}
            <span data-testid="workflow-version">
              {data.publishedVersion ? t.workflows.versionNumber(data.publishedVersion.number) : t.workflows.noVersion}
            </span>
          </p>
          {data.description ? <p className="max-w-2xl text-sm text-muted">{data.description}</p> : null}
        </div>
        <WorkflowActions workflow={data} />
      </header>
      {archived ? (
        <Alert tone="info" testId="workflow-archived" className="mb-4">
          {t.workflows.archivedNotice}
        </Alert>
      ) : null}
      <Tabs id={tabsId} items={tabs} value={tab} onChange={setTab} label={t.workflows.tabs.label} />
      <TabPanel id={tabsId} value={tab}>
        {/* The builder stays mounted on other tabs: its undo history and unsaved edits survive a look at the versions. */}
        <div className={tab === 'graph' ? undefined : 'hidden'}>
          <WorkflowBuilder key={data.id} workflow={data} />
        </div>
        {tab === 'evaluate' ? <EvalRunsPanel workflowId={data.id} hasPublished={data.publishedVersion !== null} hasAiNodes={graphHasAiNodes(data.graph)} nodeNames={nodeNamesOf(data.graph)} /> : null}
        {tab === 'json' ? <GraphEditor workflow={data} /> : null}
        {tab === 'versions' ? <VersionsList workflowId={data.id} draftGraph={data.graph} draftRevision={data.draftRevision} readOnly={archived} /> : null}
        {tab === 'settings' ? <SettingsPanel workflow={data} /> : null}
        {tab === 'webhook' ? <WebhookPanel workflow={data} /> : null}
      </TabPanel>
    </DraftSaverProvider>
  );
}
