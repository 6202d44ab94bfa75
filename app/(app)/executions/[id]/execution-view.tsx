'use client';

/**
 * One run: its status and facts, the error that ended it, the graph it followed with each node in its
 * step's status colour, the steps in order and the chosen step's detail; cancel while it runs, replay
 * once it failed, undo its mailbox changes once it finished (and what that undo did). Live events
 * (execution.status / execution.step) refresh it from the shell.
 */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { runErrorText } from '@/app/lib/run-error-text';
import { formatDateTime } from '@/app/lib/format';
import { useRealtimeStatus } from '@/app/lib/realtime';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { ConfirmDialog } from '@/app/ui/dialog';
import { ActivityIcon, ArrowLeftIcon, RefreshIcon } from '@/app/ui/icons';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { cn } from '@/app/ui/cn';
import { GraphCanvas } from '../../workflows/_components/graph-canvas';
import { canvasModel } from '../../workflows/_lib/graph-model';
import { TriggerHeadline } from '../_components/trigger-headline';
import { useExecution, useExecutionGraph, useExecutionMutations, type ExecutionDetail, type Step } from '../_lib/api';
import { colourClasses, durationMs, executionStatusTone, formatDuration, isInProgress, statusColour } from '../_lib/status';
import { JsonBlock } from './json-block';
import { ReplayDialog } from './replay-dialog';
import { StepDetail } from './step-detail';
import { UndoButton, UndoDialog } from './undo-dialog';
import { UndoSummaryNotice } from './undo-summary';
import { undoAvailability } from '../_lib/undo-text';
import { WaitingNote } from './wait-notes';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-sm">{children}</dd>
    </div>
  );
}

function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

function StepTimeline({ steps, names, selected, onSelect }: { steps: Step[]; names: Map<string, string>; selected: string | null; onSelect: (nodeId: string) => void }) {
  const { t, locale } = useI18n();
  if (steps.length === 0) return <p className="px-1 py-4 text-sm text-muted">{t.executions.detail.noSteps}</p>;
  return (
    <ol className="space-y-1" aria-label={t.executions.detail.timeline}>
      {steps.map((step, index) => (
        <li key={step.id}>
          <button
            type="button"
            data-testid="timeline-step"
            data-status={step.status}
            aria-current={step.nodeId === selected ? 'step' : undefined}
            onClick={() => onSelect(step.nodeId)}
            className={cn(
              'flex w-full items-center gap-2.5 rounded-md border-l-4 px-2.5 py-1.5 text-left text-sm hover:bg-subtle',
              colourClasses[statusColour(step.status)],
              step.nodeId === selected && 'ring-2 ring-brand',
            )}
          >
            <span className="w-5 shrink-0 text-right text-xs text-muted tabular-nums">{index + 1}</span>
            <span className="min-w-0 flex-1 truncate font-medium">{names.get(step.nodeId) ?? step.nodeId}</span>
            <span className="shrink-0 text-xs">{t.executions.status[step.status] ?? step.status}</span>
            {step.durationMs !== null ? <span className="w-16 shrink-0 text-right text-xs text-muted tabular-nums">{formatDuration(step.durationMs, locale)}</span> : null}
          </button>
        </li>
      ))}
    </ol>
  );
}

function ExecutionActions({ execution }: { execution: ExecutionDetail }) {
  const { t } = useI18n();
  const mutations = useExecutionMutations();
  const [cancelOpen, setCancelOpen] = useState(false);
  const [replayOpen, setReplayOpen] = useState(false);
  const [undoOpen, setUndoOpen] = useState(false);
  const cancel = useMutation({ ...mutations.cancel, onSuccess: () => setCancelOpen(false) });
  const replayable = !execution.simulated && (execution.status === 'failed' || execution.status === 'cancelled');
  const undo = undoAvailability(execution);
  return (
    <div className="flex shrink-0 flex-wrap gap-2">
      {undo === 'offer' || undo === 'finish' ? <UndoButton finish={undo === 'finish'} onClick={() => setUndoOpen(true)} /> : null}
      {isInProgress(execution.status) ? (
        <Button variant="dangerGhost" onClick={() => setCancelOpen(true)}>
          {t.executions.detail.cancel}
        </Button>
      ) : null}
      {replayable ? (
        <Button variant="primary" onClick={() => setReplayOpen(true)}>
          <RefreshIcon />
          {t.executions.detail.replay}
        </Button>
      ) : null}
      <ConfirmDialog
        open={cancelOpen}
        onOpenChange={(open) => {
          setCancelOpen(open);
          if (!open) cancel.reset();
        }}
        title={t.executions.detail.cancelConfirm.title}
        description={t.executions.detail.cancelConfirm.body}
        confirmLabel={t.executions.detail.cancelConfirm.confirm}
        pending={cancel.isPending}
        error={
          cancel.isError ? (
            <Alert tone="danger" testId="cancel-error">
              {describeError(cancel.error, t)}
            </Alert>
          ) : null
        }
        onConfirm={() => cancel.mutate({ id: execution.id })}
      />
      {replayable ? <ReplayDialog execution={execution} open={replayOpen} onOpenChange={setReplayOpen} /> : null}
      {/* Mounted whatever the run's state: once undone, the run no longer offers it, and the result stays on screen. */}
      <UndoDialog executionId={execution.id} open={undoOpen} onOpenChange={setUndoOpen} />
    </div>
  );
}

function ExecutionBody({ execution }: { execution: ExecutionDetail }) {
  const { t, locale } = useI18n();
  const d = t.executions.detail;
  const { graph, pending: graphPending } = useExecutionGraph(execution);
  const statusByNode = useMemo(() => Object.fromEntries(execution.steps.map((step) => [step.nodeId, step.status])), [execution.steps]);
  const names = useMemo(() => new Map(canvasModel(graph).nodes.map((node) => [node.id, node.name])), [graph]);
  const failedStep = execution.steps.find((step) => step.status === 'failed');
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? failedStep?.nodeId ?? execution.steps.at(-1)?.nodeId ?? null;
  const selectedStep = execution.steps.find((step) => step.nodeId === selected) ?? null;
  const now = useNow(isInProgress(execution.status));
  const duration = durationMs(execution.startedAt, execution.finishedAt, now);
  const errorNode = execution.error?.nodeId ? (names.get(execution.error.nodeId) ?? execution.error.nodeId) : null;

  return (
    <>
      <header className="mb-5 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1.5">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-xl font-semibold tracking-tight break-words">{d.title(execution.workflowName || t.executions.deletedWorkflow)}</h1>
            <StatusBadge tone={executionStatusTone(execution.status)}>
              <span data-testid="execution-detail-status">{t.executions.status[execution.status] ?? execution.status}</span>
            </StatusBadge>
            {execution.simulated ? <Badge tone="brand">{t.executions.testRun}</Badge> : null}
            {execution.acted === false ? (
              <Badge tone="neutral" title={t.executions.noEffectHint} data-testid="execution-no-effect">
                {t.executions.noEffect}
              </Badge>
            ) : null}
          </div>
          <p className="font-mono text-xs text-muted">{execution.id}</p>
        </div>
        <ExecutionActions execution={execution} />
      </header>

      {execution.simulated ? (
        <Alert tone="info" testId="execution-simulated" className="mb-4" live="none">
          {d.simulated}
        </Alert>
      ) : null}
      {execution.undo ? <UndoSummaryNotice undo={execution.undo} className="mb-4" /> : null}
      {execution.error ? (
        <Alert tone="danger" testId="execution-error" className="mb-4" live="none" title={d.errorTitle(execution.error.code)}>
          <p>{runErrorText(execution.error, t)}</p>
          {errorNode ? <p className="text-xs">{d.errorAtNode(errorNode)}</p> : null}
        </Alert>
      ) : null}

      {execution.status === 'waiting'
        ? execution.steps.map((step) => (
            <WaitingNote
              key={step.id}
              step={step}
              stepName={names.get(step.nodeId) ?? step.nodeId}
              triggerData={execution.triggerData}
              testId="execution-waiting"
            />
          ))
        : null}

      <Card className="mb-5 p-4">
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
          <Fact label={d.facts.workflow}>
            {execution.workflowName ? (
              <Link href={`/workflows/${execution.workflowId}`} className="font-medium text-brand-fg hover:underline">
                {execution.workflowName}
              </Link>
            ) : (
              <span className="text-muted italic">{t.executions.deletedWorkflow}</span>
            )}
          </Fact>
          <Fact label={d.facts.trigger}>
            <TriggerHeadline headline={execution.messageHeadline} triggerType={execution.triggerType} />
          </Fact>
          <Fact label={d.facts.started}>{execution.startedAt ? formatDateTime(execution.startedAt, locale) : t.executions.notStarted}</Fact>
          <Fact label={d.facts.finished}>{execution.finishedAt ? formatDateTime(execution.finishedAt, locale) : isInProgress(execution.status) ? t.executions.inProgress : '—'}</Fact>
          <Fact label={d.facts.duration}>{duration === null ? '—' : formatDuration(duration, locale)}</Fact>
          {execution.retryOfExecutionId ? (
            <Fact label={d.facts.replayOf}>
              <Link href={`/executions/${execution.retryOfExecutionId}`} className="text-brand-fg hover:underline" data-testid="replay-of-link">
                {d.replayOfLink}
              </Link>
            </Fact>
          ) : null}
          {execution.parentExecutionId ? (
            <Fact label={d.facts.parent}>
              <Link href={`/executions/${execution.parentExecutionId}`} className="text-brand-fg hover:underline">
                {d.parentLink}
              </Link>
            </Fact>
          ) : null}
        </dl>
      </Card>

      {graphPending ? (
        <div className="mb-5 h-[420px] animate-pulse rounded-lg bg-subtle" />
      ) : graph ? (
        <GraphCanvas graph={graph} statusByNode={statusByNode} selectedNodeId={selected} onSelectNode={setChosen} label={d.canvas} className="mb-5" />
      ) : null}

      <div className="grid gap-5 lg:grid-cols-[minmax(0,24rem)_minmax(0,1fr)]">
        <Card className="self-start p-3">
          <h2 className="mb-2 px-1 text-sm font-semibold">{d.timeline}</h2>
          <StepTimeline steps={execution.steps} names={names} selected={selected} onSelect={setChosen} />
        </Card>
        <Card className="min-w-0 p-4">
          {selectedStep ? (
            <StepDetail step={selectedStep} nodeName={names.get(selectedStep.nodeId) ?? selectedStep.nodeId} triggerData={execution.triggerData} />
          ) : (<p className="text-sm text-muted">{d.selectStep}</p>
          )}
        </Card>
      </div>

      {execution.triggerData ? (
        <details className="mt-5">
          <summary className="cursor-pointer text-sm font-semibold">{d.triggerData}</summary>
          <JsonBlock value={execution.triggerData} className="mt-2" testId="execution-trigger-data" />
        </details>
      ) : null}
    </>
  );
}

export function ExecutionView({ id }: { id: string }) {
  const { t } = useI18n();
  const live = useRealtimeStatus();
  const execution = useExecution(id, live);
  const back = (
    <Link href="/executions" className="mb-3 inline-flex items-center gap-1.5 text-sm text-muted hover:text-fg">
      <ArrowLeftIcon size={14} />
      {t.executions.detail.back}
    </Link>
  );
  return (
    <>
      {back}
      {execution.isPending ? (
        <LoadingState rows={3} />
      ) : !execution.data ? (
        errorCodeOf(execution.error) === 'execution.not_found' || errorCodeOf(execution.error) === 'request.bad_request' ? (
          <EmptyState icon={<ActivityIcon size={18} />} title={t.executions.detail.notFound.title} body={t.executions.detail.notFound.body} />
        ) : (
          <ErrorState error={execution.error} onRetry={() => execution.refetch()} testId="execution-load-error" />
        )
      ) : (
        <ExecutionBody key={execution.data.id} execution={execution.data} />
      )}
    </>
  );
}
