'use client';

/**
 * Evaluation runs in the builder: "Try on my last 200 mails" runs the draft in simulation over the
 * last mirrored messages of its trigger's mailboxes (nothing real happens), shows live progress, a
 * summary sentence and the cases one by one, compared with the published version when there is one.
 * Self-contained: mount it with the workflow's id, whether it has a published version and whether
 * its draft has AI nodes (then a checkbox lets the member have them call their model for real, at a
 * cost, and the run shows what its calls cost).
 */
import { useState } from 'react';
import type { Dictionary } from '@/app/i18n';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { CheckboxField } from '@/app/ui/field';
import { ProgressBar } from '@/app/ui/progress';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { reasonClause, reasonCode } from '@/app/lib/why-text';
import { EvalReasons } from './eval-reasons';
import { evalSummary, type EvalStrings } from './summary';
import { isEvalActive, useEvalCases, useEvalLiveUpdates, useEvalMutations, useLatestEvalRun, type EvalCase, type EvalRun } from './api';

const statusTones: Record<string, BadgeTone> = { queued: 'neutral', running: 'brand', succeeded: 'success', failed: 'danger', cancelled: 'warning' };

function errorText(error: unknown, t: Dictionary): string {
  const code = appErrorOf(error)?.code;
  return (code && t.eval.errors[code]) || describeError(error, t);
}

const effectsText = (effects: EvalCase['effects']) => effects.map((effect) => effect.description || effect.kind).join('; ');
/** Whether a (saved) graph has AI nodes: the evaluation may then call their models. */
export function graphHasAiNodes(graph: { nodes: readonly unknown[] }): boolean {
  return graph.nodes.some((node) => typeof node === 'object' && node !== null && typeof (node as { type?: unknown }).type === 'string' && (node as { type: string }).type.startsWith('ai.'));
}

const usd = (amount: number, locale: string) => new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 4 }).format(amount);

/** A graph's node names by id: a case's path reads as names (a node gone from the draft keeps its id). */
export function nodeNamesOf(graph: { nodes: readonly unknown[] }): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const node of graph.nodes) {
    const { id, name } = (node ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id === 'string' && typeof name === 'string' && name.trim() !== '') names.set(id, name);
  }
  return names;
}

const pathText = (path: readonly string[], names: ReadonlyMap<string, string>) => path.map((id) => names.get(id) ?? id).join(' → ');

export function EvalRunsPanel({
  workflowId,
  hasPublished,
  hasAiNodes = false,
  nodeNames = new Map(),
}: {
  workflowId: string;
  hasPublished: boolean;
  hasAiNodes?: boolean;
  nodeNames?: ReadonlyMap<string, string>;
}) {
  const { t, locale } = useI18n();
  const strings = t.eval;
  const latest = useLatestEvalRun(workflowId);
  const { start, cancel } = useEvalMutations(workflowId);
  const [changedOnly, setChangedOnly] = useState(false);
  const [callModels, setCallModels] = useState(false);
  useEvalLiveUpdates(workflowId);

  const run = latest.data ?? null;
  const active = isEvalActive(run);
  const mutationError = start.error ?? cancel.error;

  return (
    <Card className="flex flex-col gap-4 p-4" data-testid="eval-panel">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-base font-semibold">{strings.title}</h2>
          <p className="text-sm text-muted">{strings.description}</p>
        </div>
        <div className="flex gap-2">
          {active && run ? (
            <Button size="sm" variant="secondary" loading={cancel.isPending} onClick={() => cancel.mutate({ id: run.id })} data-testid="eval-cancel">
              {cancel.isPending ? strings.cancelling : strings.cancel}
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="primary"
            loading={start.isPending}
            disabled={active}
            onClick={() => start.mutate({ id: workflowId, baseline: hasPublished ? 'published' : 'none', ...(hasAiNodes && callModels ? { callModels: true } : {}) })}
            data-testid="eval-start"
          >
            {start.isPending ? strings.starting : strings.start}
          </Button>
        </div>
      </div>

      {hasAiNodes ? (
        <CheckboxField
          label={strings.callModels}
          hint={strings.callModelsNote}
          checked={callModels}
          disabled={active}
          onChange={(event) => setCallModels(event.target.checked)}
          data-testid="eval-call-models"
        />
      ) : null}

      {mutationError ? (
        <Alert tone="danger" testId="eval-error">
          {errorText(mutationError, t)}
        </Alert>
      ) : null}
      {latest.error ? (
        <Alert tone="danger" testId="eval-load-error">
          {errorText(latest.error, t)}
        </Alert>
      ) : null}

      {run ? (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge tone={statusTones[run.status] ?? 'neutral'}>{strings.statuses[run.status] ?? run.status}</StatusBadge>
            <span className="text-muted" data-testid="eval-progress">
              {strings.progress(run.progress.done, run.progress.total)}
            </span>
            <span className="text-muted">· {strings.startedAt(formatDateTime(run.createdAt, locale))}</span>
            {run.costUsd !== null ? (
              <span className="text-muted" data-testid="eval-cost">
                · {strings.cost(usd(run.costUsd, locale))}
              </span>
            ) : null}
          </div>
          {active ? <ProgressBar value={run.progress.total > 0 ? (100 * run.progress.done) / run.progress.total : null} label={strings.progressLabel} /> : null}
          <p className="text-sm font-medium" data-testid="eval-summary" aria-live="polite">
            {evalSummary(run, strings)}
          </p>
          <EvalReasons run={run} workflowId={workflowId} />
          {run.baseline !== 'none' ? <p className="text-xs text-muted">{strings.comparedWith(strings.baselineNames[run.baseline] ?? run.baseline)}</p> : null}
          {run.status === 'failed' ? (
            <Alert tone="danger" testId="eval-failed" live="none">
              {strings.failed} {run.error?.message}
            </Alert>
          ) : null}
          {run.baseline !== 'none' ? (
            <CheckboxField label={strings.onlyDifferences} checked={changedOnly} onChange={(event) => setChangedOnly(event.target.checked)} data-testid="eval-only-differences" />
          ) : null}
          <EvalCaseTable run={run} changedOnly={changedOnly && run.baseline !== 'none'} nodeNames={nodeNames} />
        </div>
      ) : latest.isSuccess ? (
        <p className="text-sm text-muted" data-testid="eval-empty">
          {strings.empty}
        </p>
      ) : null}
    </Card>
  );
}

function EvalCaseTable({ run, changedOnly, nodeNames }: { run: EvalRun; changedOnly: boolean; nodeNames: ReadonlyMap<string, string> }) {
  const { t } = useI18n();
  const strings = t.eval;
  const pages = useEvalCases(run.id, changedOnly, `${run.status}:${run.progress.done}`);
  const cases = pages.data?.pages.flatMap((page) => page.cases) ?? [];

  if (pages.error) {
    return (
      <Alert tone="danger" testId="eval-cases-error">
        {errorText(pages.error, t)}
      </Alert>
    );
  }
  if (pages.isSuccess && cases.length === 0) return <p className="text-sm text-muted">{changedOnly ? strings.emptyDifferences : strings.emptyCases}</p>;

  return (
    <div className="flex flex-col gap-2">
      <Table caption={strings.casesCaption}>
        <THead>
          <TH>{strings.columns.message}</TH>
          <TH>{strings.columns.trigger}</TH>
          <TH>{strings.columns.path}</TH>
          <TH>{strings.columns.effects}</TH>
          <TH>{strings.columns.error}</TH>
          {run.baseline !== 'none' ? <TH>{strings.columns.baseline}</TH> : null}
        </THead>
        <TBody>
          {cases.map((item) => (
            <CaseRow key={item.id} item={item} showBaseline={run.baseline !== 'none'} strings={strings} nodeNames={nodeNames} />
          ))}
        </TBody>
      </Table>
      {pages.hasNextPage ? (
        <Button size="sm" variant="secondary" className="self-start" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()} data-testid="eval-load-more">
          {pages.isFetchingNextPage ? strings.loading : strings.loadMore}
        </Button>
      ) : null}
    </div>
  );
}

function triggerBadge(item: EvalCase, strings: EvalStrings) {
  if (item.status === 'cancelled') return <Badge tone="warning">{strings.caseCancelled}</Badge>;
  if (item.triggered === null || item.status === 'pending') return <Badge>{strings.pending}</Badge>;
  return item.triggered ? <Badge tone="brand">{strings.triggered}</Badge> : <Badge>{strings.notTriggered}</Badge>;
}

function CaseRow({ item, showBaseline, strings, nodeNames }: { item: EvalCase; showBaseline: boolean; strings: EvalStrings; nodeNames: ReadonlyMap<string, string> }) {
  const { t } = useI18n();
  const done = item.status === 'done';
  return (
    <TR data-testid="eval-case-row" data-changed={item.changed ? 'true' : 'false'}>
      <TD className="max-w-64">
        {item.headline ? (
          <>
            <div className="truncate font-medium">{item.headline.subject || strings.noSubject}</div>
            <div className="truncate text-xs text-muted">{item.headline.fromName ? `${item.headline.fromName} <${item.headline.fromEmail ?? ''}>` : (item.headline.fromEmail ?? '')}</div>
          </>
        ) : (
          <span className="font-medium">{strings.item(item.index)}</span>
        )}
      </TD>
      <TD className="max-w-72">
        {triggerBadge(item, strings)}
        {item.reason ? (
          <div className="mt-1 text-xs text-muted" data-testid="eval-case-reason" title={reasonCode(item.reason)}>
            {t.why.eval.wouldNotRun(reasonClause(item.reason, t.why))}
          </div>
        ) : null}
      </TD>
      <TD className="text-xs" title={item.path.join(' → ')}>{pathText(item.path, nodeNames) || '—'}</TD>
      <TD className="text-xs">{done ? effectsText(item.effects) || strings.noEffects : ''}</TD>
      <TD className="text-xs">{item.error ? <span className="text-red-700 dark:text-red-300">{`${item.error.code}: ${item.error.message}`}</span> : strings.noError}</TD>
      {showBaseline ? (
        <TD className="text-xs">
          {!done ? null : item.baseline ? (
            <div className="flex flex-col gap-1">
              <Badge tone={item.changed ? 'warning' : 'success'}>{item.changed ? strings.differs : strings.same}</Badge>
              {item.changed ? <span className="text-muted">{strings.baselineDid(pathText(item.baseline.path, nodeNames), effectsText(item.baseline.effects))}</span> : null}
            </div>
          ) : (
            <span className="text-muted">{strings.noBaseline}</span>
          )}
        </TD>
      ) : null}
    </TR>
  );
}
