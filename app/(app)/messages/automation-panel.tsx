'use client';

/**
 * "Why didn't it run?" in the reading pane: what automation did with one message, from its journal
 * (GET /api/v1/messages/{id}/journal). The summary line says the journal's outcome in a sentence; opened,
 * it lists each published mail workflow with whether it started (and links to its runs) or why not
 * (the guardrail, filter, exclusion or pause, worked out by dispatch's own rules on the server), with
 * the option that would let that kind of mail in. Codes stay in the details, for whoever quotes them.
 * Mounted by message-item.tsx under an expanded message's body; it reads only when mounted.
 */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { formatDateTime } from '@/app/lib/format';
import type { RouterOutputs } from '@/app/lib/trpc';
import { inclusionOf, reasonClause, reasonCode } from '@/app/lib/why-text';
import { Badge } from '@/app/ui/badge';
import { useMessageJournal } from './_lib/api';

type Journal = RouterOutputs['journal']['message'];
type WorkflowVerdict = Journal['workflows'][number];

/** The journal's outcome as one sentence. */
export function outcomeSentence(journal: Journal, t: Dictionary): string {
  const w = t.why;
  const entry = journal.entry;
  if (!entry) return w.panel.notHandled;
  switch (entry.outcome) {
    case 'excluded_org':
      return w.panel.excluded_org;
    case 'excluded_member':
      return w.panel.excluded_member;
    case 'guardrail':
      return w.panel.guardrail(reasonClause({ verdict: 'guardrail', ruleRef: entry.ruleRef, param: null }, w));
    case 'unmatched':
      return w.panel.unmatched;
    case 'dispatched':
      return w.panel.dispatched(new Set(journal.executions.filter((run) => !run.simulated).map((run) => run.workflowId)).size);
  }
}

/** One workflow's line: started, or why not. */
export function verdictSentence(workflow: WorkflowVerdict, t: Dictionary): string {
  const w = t.why;
  if (workflow.verdict === 'started') return w.panel.started;
  if (workflow.verdict === 'would_start') return w.panel.wouldStart;
  return w.panel.notStarted(reasonClause(workflow, w));
}

export function AutomationPanel({ messageId }: { messageId: string }) {
  const { t, locale } = useI18n();
  const w = t.why;
  const journal = useMessageJournal(messageId);

  if (journal.isPending) {
    return (
      <p role="status" className="mt-3 text-xs text-muted" data-testid="automation-loading">
        {w.panel.loading}
      </p>
    );
  }
  if (journal.isError || !journal.data) {
    return (
      <p className="mt-3 text-xs text-muted" data-testid="automation-error">
        {w.panel.error}
      </p>
    );
  }
  const data = journal.data;
  const runsOf = (workflowId: string) => data.executions.filter((run) => run.workflowId === workflowId);
  return (
    <details className="mt-3 rounded-lg border border-line px-3 py-2 text-sm" data-testid="automation-panel" aria-label={w.panel.label}>
      <summary className="cursor-pointer select-none">
        <span className="font-medium">{w.panel.title}</span>
        {' · '}
        <span data-testid="automation-outcome">{outcomeSentence(data, t)}</span>
      </summary>
      <div className="mt-2 space-y-2">
        {data.entry?.ruleRef ? (
          <p className="text-xs text-muted">
            {w.code}: <code>{data.entry.ruleRef}</code>
          </p>
        ) : null}
        <h3 className="text-xs font-semibold text-muted">{w.panel.workflows}</h3>
        {data.workflows.length === 0 ? <p className="text-xs text-muted">{w.panel.noWorkflows}</p> : null}
        <ul className="space-y-2">
          {data.workflows.map((workflow) => {
            const option = inclusionOf(workflow);
            const runs = runsOf(workflow.workflowId);
            return (
              <li key={workflow.workflowId} data-testid="automation-workflow" data-verdict={workflow.verdict}>
                <div className="flex flex-wrap items-baseline gap-2">
                  <Link href={`/workflows/${workflow.workflowId}`} className="font-medium text-brand hover:underline">
                    {workflow.workflowName}
                  </Link>
                  {workflow.verdict === 'started' ? <Badge tone="success">{w.panel.started}</Badge> : null}
                </div>
                {workflow.verdict === 'started' ? null : <p data-testid="automation-reason">{verdictSentence(workflow, t)}</p>}
                {option ? <p className="text-xs text-muted">{w.includeHint(w.options[option] ?? option)}</p> : null}
                {runs.length > 0 ? (
                  <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs" aria-label={w.panel.runs}>
                    {runs.map((run) => (
                      <li key={run.id}>
                        <Link href={`/executions/${run.id}`} className="text-brand hover:underline" data-testid="automation-run">
                          {w.panel.run(formatDateTime(run.createdAt, locale))}
                          {run.simulated ? ` (${w.panel.testRun})` : ''}
                        </Link>{' '}
                        <span className="text-muted">{t.executions.status[run.status] ?? run.status}</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
                {workflow.verdict !== 'started' && workflow.verdict !== 'would_start' ? (
                  <p className="text-xs text-muted">
                    {w.code}: <code>{reasonCode(workflow)}</code>
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        {(() => {
          // Runs of workflows no longer published (or deleted) are still the message's runs.
          const listed = new Set(data.workflows.map((workflow) => workflow.workflowId));
          const others = data.executions.filter((run) => !listed.has(run.workflowId));
          if (others.length === 0) return null;
          return (
            <ul className="space-y-1 text-xs" aria-label={w.panel.runs}>
              {others.map((run) => (
                <li key={run.id}>
                  <Link href={`/executions/${run.id}`} className="text-brand hover:underline" data-testid="automation-run">
                    {run.workflowName || w.panel.deletedWorkflow} · {w.panel.run(formatDateTime(run.createdAt, locale))}
                    {run.simulated ? ` (${w.panel.testRun})` : ''}
                  </Link>{' '}
                  <span className="text-muted">{t.executions.status[run.status] ?? run.status}</span>
                </li>
              ))}
            </ul>
          );
        })()}
      </div>
    </details>
  );
}
