'use client';

/**
 * One step of a run: its input, the output port it took, its data, attempts, effects, warnings and error;
 * for an AI step, its model call (model, tokens, cost) first; for a wait, until when it waits, and for a
 * wait for a reply that ended, what ended it.
 */
import { runErrorText } from '@/app/lib/run-error-text';
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { aiCallOf, formatUsd, type AiCallSummary } from '../_lib/ai-call';
import type { Step } from '../_lib/api';
import { executionStatusTone, formatDuration } from '../_lib/status';
import { JsonBlock } from './json-block';
import { ReplyWaitEnd, WaitingNote } from './wait-notes';

/** An attempt's instant: the time to the second (the date is in the tooltip). */
function attemptTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(date);
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-1.5">
      <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{title}</h3>
      {children}
    </section>
  );
}

/** The model call of an AI step: model, tokens and cost (or that the answer was simulated). */
function AiCall({ call }: { call: AiCallSummary }) {
  const { t, locale } = useI18n();
  const s = t.executions.step.aiCall;
  const number = (value: number | null) => (value === null ? '—' : value.toLocaleString(locale === 'fr' ? 'fr-FR' : 'en-US'));
  if (call.simulated) return <p className="text-sm text-muted">{s.simulated}</p>;
  const parts = [
    s.tokens(number(call.inputTokens), number(call.outputTokens)),
    call.reasoningTokens ? s.reasoning(number(call.reasoningTokens)) : null,
    call.costUsd === null ? s.costUnknown : s.cost(formatUsd(call.costUsd, locale)),
  ].filter(Boolean);
  return (
    <p className="flex flex-wrap items-center gap-2 text-sm">
      {call.model ? <code className="rounded bg-subtle px-1 font-mono text-xs">{call.model}</code> : null}
      <span>{parts.join(' · ')}</span>
    </p>
  );
}

export function StepDetail({ step, nodeName, triggerData = null }: { step: Step; nodeName: string; triggerData?: Record<string, unknown> | null }) {
  const { t, locale } = useI18n();
  const s = t.executions.step;
  const aiCall = aiCallOf(step.data);
  return (
    <div className="space-y-4" data-testid="step-detail" aria-label={s.label(nodeName)} role="region">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">{nodeName}</h2>
        <StatusBadge tone={executionStatusTone(step.status)}>{t.executions.status[step.status] ?? step.status}</StatusBadge>
        {step.attempt > 0 ? <span className="text-xs text-muted">{s.attempt(step.attempt)}</span> : null}
        {step.durationMs !== null ? <span className="text-xs text-muted tabular-nums">{formatDuration(step.durationMs, locale)}</span> : null}
        {step.pinned ? <Badge tone="brand">{s.pinned}</Badge> : null}
        {step.disabled ? <Badge>{s.disabledNode}</Badge> : null}
      </div>
      <p className="font-mono text-xs text-muted">{step.nodeId}</p>
      <WaitingNote step={step} triggerData={triggerData} testId="step-waiting" />
      <ReplyWaitEnd step={step} />
      {step.copiedFrom ? (
        <Alert tone="info" testId="step-copied" live="none">
          {s.copiedFrom}
        </Alert>
      ) : null}
      {step.llmSkipped ? (
        <Alert tone="info" testId="step-llm-skipped" live="none">
          {s.llmSkipped}
        </Alert>
      ) : null}
      {step.error ? (
        <Alert tone="danger" testId="step-error" live="none" title={step.error.code}>
          {runErrorText(step.error, t)}
        </Alert>
      ) : null}
      {step.loop ? (
        <p className="text-sm">
          {s.loop(step.loop.succeeded + step.loop.failed, step.loop.total, step.loop.failed)}
          {step.loop.simulatedLimit !== undefined ? <span className="block text-xs text-muted">{s.loopSimulated(step.loop.simulatedLimit)}</span> : null}
        </p>
      ) : null}
      {aiCall ? (
        <Section title={s.aiCall.title}>
          <div data-testid="step-ai-call">
            <AiCall call={aiCall} />
          </div>
        </Section>
      ) : null}
      <Section title={s.input}>
        <JsonBlock value={step.input} testId="step-input" />
      </Section>
      <Section title={s.output}>
        <p className="font-mono text-sm" data-testid="step-output">
          {step.output ?? '—'}
        </p>
      </Section>
      <Section title={s.data}>
        {step.data === null ? <p className="text-sm text-muted">{s.noData}</p> : <JsonBlock value={step.data} testId="step-data" />}
        {step.dataTruncated ? (
          <Alert tone="warning" testId="step-truncated" live="none">
            {s.truncated}
          </Alert>
        ) : null}
      </Section>
      {step.attempts.length > 0 ? (
        <Section title={s.attempts}>
          <Table caption={s.attempts}>
            <THead>
              <TH>{s.attemptColumns.attempt}</TH>
              <TH>{s.attemptColumns.at}</TH>
              <TH>{s.attemptColumns.code}</TH>
              <TH>{s.attemptColumns.message}</TH>
              <TH>{s.attemptColumns.kind}</TH>
              <TH>{s.attemptColumns.outcome}</TH>
            </THead>
            <TBody>
              {step.attempts.map((attempt) => (
                <TR key={attempt.attempt} data-testid="step-attempt">
                  <TD className="tabular-nums">{attempt.attempt}</TD>
                  <TD className="whitespace-nowrap text-muted tabular-nums" title={formatDateTime(attempt.at, locale)}>
                    {attemptTime(attempt.at, locale)}
                  </TD>
                  <TD className="font-mono text-xs">{attempt.code}</TD>
                  <TD className="min-w-48 text-[13px] break-words">{attempt.message}</TD>
                  <TD>{s.kinds[attempt.kind] ?? attempt.kind}</TD>
                  <TD className="whitespace-nowrap text-xs">
                    {[attempt.interrupted ? s.interrupted : null, attempt.retried ? s.retried : s.notRetried].filter(Boolean).join(' · ')}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </Section>
      ) : null}
      <Section title={s.effects}>
        {step.effects.length === 0 ? (
          <p className="text-sm text-muted">{s.noEffects}</p>
        ) : (
          <ul className="space-y-1">
            {step.effects.map((effect, index) => (
              <li key={index} className="flex items-start gap-2 text-sm" data-testid="step-effect">
                <code className="rounded bg-subtle px-1 font-mono text-xs">{effect.kind}</code>
                <span className="min-w-0 flex-1 break-words">{effect.description}</span>
                {effect.simulated ? <Badge tone="brand">{s.simulatedEffect}</Badge> : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      {step.warnings.length > 0 ? (
        <Section title={s.warnings}>
          <ul className="list-disc space-y-1 pl-5 text-sm text-amber-800 dark:text-amber-300">
            {step.warnings.map((warning, index) => (
              <li key={index}>{warning}</li>
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}
