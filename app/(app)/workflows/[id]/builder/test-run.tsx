'use client';

/**
 * Test runs from the builder: the draft is saved first, then run whole or up to a node, on a pinned
 * test message (or none); each node then shows its status on the canvas and its output in the
 * inspector. External effects of a test run are simulated (the engine's rule), and listed as such;
 * AI steps answer a simulated output unless the member ticks "Call the AI models" (a real call, its
 * cost recorded).
 * Test messages (up to 20) are picked from the mirror.
 */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { runErrorText } from '@/app/lib/run-error-text';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { Checkbox, Select } from '@/app/ui/field';
import { executionStatusTone, isInProgress } from '../../../executions/_lib/status';
import { useWorkflowsCache, type WorkflowDetail } from '../../_lib/api';
import { useBuilderMutations, usePinnedSubjects, useRecentMessages, useTestRun, type TestRunStep } from './api';
import { hasAiNodes } from './model/ai-nodes';

export const maxTestMessages = 20;

/**
 * The test message selected after the member saved a choice in the dialog: the first message they
 * just added (what they picked it for), else the one selected if still chosen, else the first chosen.
 */
export function messageAfterPick(selected: string, before: readonly string[], chosen: readonly string[]): string {
  const added = chosen.find((id) => !before.includes(id));
  if (added) return added;
  if (selected && chosen.includes(selected)) return selected;
  return chosen[0] ?? '';
}

export function useTestRunner(workflow: WorkflowDetail, flush: () => Promise<boolean>) {
  const mutations = useBuilderMutations();
  const start = useMutation(mutations.testRun);
  const [executionId, setExecutionId] = useState<string | null>(null);
  const [messageId, setMessageId] = useState<string>(workflow.testMessageIds[0] ?? '');
  const [notSaved, setNotSaved] = useState(false);
  // AI steps answer a simulated output unless the member asks for real model calls (their cost is recorded).
  const [callModels, setCallModels] = useState(false);
  const run = useTestRun(executionId);
  const steps = useMemo(() => run.data?.steps ?? [], [run.data]);
  const stepsByNode = useMemo(() => new Map<string, TestRunStep>(steps.map((step) => [step.nodeId, step])), [steps]);
  const statusByNode = useMemo(() => Object.fromEntries(steps.map((step) => [step.nodeId, step.status])), [steps]);

  return {
    executionId,
    detail: run.data ?? null,
    stepsByNode,
    statusByNode,
    messageId,
    setMessageId,
    callModels,
    setCallModels,
    pending: start.isPending,
    error: start.error,
    notSaved,
    async start(upToNodeId?: string) {
      setNotSaved(false);
      start.reset();
      if (!(await flush())) {
        setNotSaved(true);
        return;
      }
      const answer = await start
        .mutateAsync({
          id: workflow.id,
          ...(messageId ? { messageId } : {}),
          ...(upToNodeId ? { upToNodeId } : {}),
          ...(callModels && hasAiNodes(workflow.graph) ? { callModels: true } : {}),
        })
        .catch(() => null);
      if (answer) setExecutionId(answer.executionId);
    },
  };
}

export type TestRunner = ReturnType<typeof useTestRunner>;

export function TestRunControls({ workflow, runner, readOnly, onPickMessages }: { workflow: WorkflowDetail; runner: TestRunner; readOnly: boolean; onPickMessages: () => void }) {
  const { t } = useI18n();
  const b = t.builder.test;
  const subjects = usePinnedSubjects(workflow.testMessageIds);
  const running = runner.detail ? isInProgress(runner.detail.status) : false;
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Select
        controlSize="sm"
        aria-label={b.message}
        value={runner.messageId}
        onChange={(event) => runner.setMessageId(event.target.value)}
        className="max-w-56"
        data-testid="test-message-select"
      >
        <option value="">{b.noMessage}</option>
        {workflow.testMessageIds.map((id) => (
          <option key={id} value={id}>
            {subjects.get(id) || b.untitled}
          </option>
        ))}
      </Select>
      <Button size="sm" variant="ghost" onClick={onPickMessages} disabled={readOnly} data-testid="test-messages-pick">
        {b.pick}
      </Button>
      {hasAiNodes(workflow.graph) ? (
        <label className="flex items-center gap-1.5 text-sm" title={b.callModelsHint}>
          <Checkbox checked={runner.callModels} onChange={(event) => runner.setCallModels(event.target.checked)} disabled={readOnly} data-testid="test-run-call-models" />
          {b.callModels}
        </label>
      ) : null}
      <Button size="sm" variant="primary" onClick={() => void runner.start()} loading={runner.pending || running} disabled={readOnly} data-testid="test-run-start">
        {b.run}
      </Button>
    </div>
  );
}

export function TestRunResult({ runner }: { runner: TestRunner }) {
  const { t } = useI18n();
  const b = t.builder.test;
  if (runner.notSaved) return <Alert tone="warning" testId="test-run-not-saved">{b.notSaved}</Alert>;
  if (runner.error) return <Alert tone="danger" testId="test-run-error">{describeError(runner.error, t)}</Alert>;
  const detail = runner.detail;
  if (!detail) return null;
  const simulated = detail.steps.flatMap((step) => step.effects).filter((effect) => effect.simulated).length;
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="test-run-result" data-status={detail.status}>
      <StatusBadge tone={executionStatusTone(detail.status)}>{t.executions.status[detail.status] ?? detail.status}</StatusBadge>
      <span className="text-muted">{b.steps(detail.steps.length)}</span>
      {simulated > 0 ? <span className="text-muted">{b.simulated(simulated)}</span> : null}
      {detail.error ? <span className="text-red-700 dark:text-red-400">{runErrorText(detail.error, t)}</span> : null}
      <Link href={`/executions/${detail.id}`} className="text-brand underline-offset-2 hover:underline">
        {b.open}
      </Link>
    </div>
  );
}

export function TestMessagesDialog({
  workflow,
  open,
  onOpenChange,
  onSaved,
}: {
  workflow: WorkflowDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The saved choice, with the one before it (the picker then selects a message: messageAfterPick). */
  onSaved?: (chosen: string[], before: string[]) => void;
}) {
  const { t, locale } = useI18n();
  const b = t.builder.test;
  const cache = useWorkflowsCache();
  const mutations = useBuilderMutations();
  const [q, setQ] = useState('');
  const [chosen, setChosen] = useState<string[]>(workflow.testMessageIds);
  const messages = useRecentMessages(q, open);
  const save = useMutation({
    ...mutations.testMessages,
    onSuccess: async () => {
      await cache.refresh();
      onSaved?.(chosen, workflow.testMessageIds);
      onOpenChange(false);
    },
  });
  const toggle = (id: string) => setChosen((current) => (current.includes(id) ? current.filter((item) => item !== id) : current.length >= maxTestMessages ? current : [...current, id]));
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" title={b.pickTitle} description={b.pickDescription(maxTestMessages)}>
        <DialogBody className="space-y-3">
          <input
            type="search"
            value={q}
            onChange={(event) => setQ(event.target.value)}
            placeholder={b.search}
            aria-label={b.search}
            className="w-full rounded-md border border-line-strong bg-surface px-2 py-1.5 text-sm"
          />
          {save.isError ? <Alert tone="danger" testId="test-messages-error">{describeError(save.error, t)}</Alert> : null}
          <p className="text-xs text-muted" data-testid="test-messages-count">
            {b.chosen(chosen.length, maxTestMessages)}
          </p>
          <ul className="max-h-80 divide-y divide-line overflow-y-auto rounded-md border border-line">
            {messages.isPending ? <li className="p-3 text-sm text-muted">…</li> : null}
            {messages.data?.messages.length === 0 ? <li className="p-3 text-sm text-muted">{b.noMessages}</li> : null}
            {messages.data?.messages.map((message) => (
              <li key={message.id}>
                <label className="flex cursor-pointer items-start gap-2 p-2 text-sm hover:bg-subtle" data-testid="test-message-option">
                  <Checkbox
                    checked={chosen.includes(message.id)}
                    disabled={!chosen.includes(message.id) && chosen.length >= maxTestMessages}
                    onChange={() => toggle(message.id)}
                  />
                  <span className="min-w-0">
                    <span className="block truncate font-medium">{message.subject || b.untitled}</span>
                    <span className="block truncate text-xs text-muted">
                      {message.from?.email ?? ''} · {formatDateTime(message.receivedAt, locale)}
                    </span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </DialogBody>
        <DialogFooter>
          <Button onClick={() => onOpenChange(false)}>{t.common.cancel}</Button>
          <Button variant="primary" loading={save.isPending} onClick={() => save.mutate({ id: workflow.id, messageIds: chosen })} data-testid="test-messages-save">
            {b.save}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
