'use client';

/**
 * Run settings: the error workflow (another of the member's workflows starting with the
 * workflow-failure trigger), concurrency and run timeout, with the instance's limits shown, sending
 * without review, and one run at a time per key.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { CheckboxField, SelectField, TextField } from '@/app/ui/field';
import { formatDuration } from '../../executions/_lib/status';
import { useWorkflowList, useWorkflowMutations, useWorkflowsCache, type WorkflowDetail } from '../_lib/api';
import { keyExpressionError, OneRunAtATimeFields, oneRunAtATimeFormOf, oneRunAtATimeOf } from './one-run-at-a-time-fields';

const minute = 60_000;

function wholeNumber(text: string): number | null | 'invalid' {
  if (!text.trim()) return null;
  const value = Number(text.trim());
  return Number.isInteger(value) ? value : 'invalid';
}

export function SettingsPanel({ workflow }: { workflow: WorkflowDetail }) {
  const { t, locale } = useI18n();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const all = useWorkflowList();
  const limits = workflow.executionLimits;
  const [errorWorkflowId, setErrorWorkflowId] = useState(workflow.errorWorkflowId ?? '');
  const [concurrency, setConcurrency] = useState(workflow.maxConcurrency === null ? '' : String(workflow.maxConcurrency));
  const [timeout, setTimeoutText] = useState(workflow.executionTimeoutMs === null ? '' : String(Math.round(workflow.executionTimeoutMs / minute)));
  const [sendWithoutReview, setSendWithoutReview] = useState(workflow.sendWithoutReview);
  const [serial, setSerial] = useState(() => oneRunAtATimeFormOf(workflow));
  const [fieldErrors, setFieldErrors] = useState<{ concurrency?: string; timeout?: string; coalesce?: string }>({});
  const [saved, setSaved] = useState(false);

  const patch = useMutation({
    ...mutations.patch,
    onSuccess: async () => {
      setSaved(true);
      await cache.refresh();
    },
  });
  const limitField = appErrorOf(patch.error)?.details.field;
  const readOnly = workflow.status === 'archived';
  const others = (all.data?.workflows ?? []).filter((candidate) => candidate.id !== workflow.id);

  function submit(event: FormEvent) {
    event.preventDefault();
    const nextConcurrency = wholeNumber(concurrency);
    const nextTimeout = wholeNumber(timeout);
    const nextSerial = oneRunAtATimeOf(serial);
    const errors = {
      concurrency: nextConcurrency === 'invalid' ? t.workflows.settings.invalidNumber : undefined,
      timeout: nextTimeout === 'invalid' ? t.workflows.settings.invalidNumber : undefined,
      coalesce: 'invalid' in nextSerial ? t.workflows.settings.invalidCoalesce : undefined,
    };
    setFieldErrors(errors);
    setSaved(false);
    if (nextConcurrency === 'invalid' || nextTimeout === 'invalid' || 'invalid' in nextSerial) return;
    patch.mutate({
      id: workflow.id,
      settings: {
        errorWorkflowId: errorWorkflowId || null,
        maxConcurrency: nextConcurrency,
        executionTimeoutMs: nextTimeout === null ? null : nextTimeout * minute,
        sendWithoutReview,
        oneRunAtATime: nextSerial.value,
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="max-w-xl space-y-5">
      {patch.isError ? (
        <Alert tone="danger" testId="settings-error">
          {describeError(patch.error, t)}
        </Alert>
      ) : null}
      {saved ? (
        <Alert tone="success" testId="settings-saved">
          {t.workflows.settings.saved}
        </Alert>
      ) : null}
      <SelectField
        label={t.workflows.settings.errorWorkflow}
        hint={t.workflows.settings.errorWorkflowHint}
        value={errorWorkflowId}
        disabled={readOnly}
        onChange={(event) => setErrorWorkflowId(event.target.value)}
      >
        <option value="">{t.workflows.settings.errorWorkflowNone}</option>
        {others.map((candidate) => {
          const eligible = candidate.triggerType === 'workflow_failure';
          return (
            <option key={candidate.id} value={candidate.id} disabled={!eligible && candidate.id !== errorWorkflowId}>
              {eligible ? candidate.name : `${candidate.name} ${t.workflows.settings.errorWorkflowIneligible}`}
            </option>
          );
        })}
      </SelectField>
      <TextField
        label={t.workflows.settings.concurrency}
        optional={t.common.optional}
        inputMode="numeric"
        className="max-w-40"
        value={concurrency}
        disabled={readOnly}
        placeholder={String(limits.maxConcurrency.effective)}
        onChange={(event) => setConcurrency(event.target.value)}
        hint={t.workflows.settings.concurrencyHint(limits.maxConcurrency.effective, limits.maxConcurrency.ceiling, limits.maxConcurrency.instanceTotal)}
        error={fieldErrors.concurrency ?? (limitField === 'maxConcurrency' ? describeError(patch.error, t) : undefined)}
      />
      <TextField
        label={t.workflows.settings.timeout}
        optional={t.common.optional}
        inputMode="numeric"
        className="max-w-40"
        value={timeout}
        disabled={readOnly}
        placeholder={String(Math.round(limits.executionTimeoutMs.effective / minute))}
        onChange={(event) => setTimeoutText(event.target.value)}
        hint={t.workflows.settings.timeoutHint(
          formatDuration(limits.executionTimeoutMs.effective, locale),
          formatDuration(limits.executionTimeoutMs.minimum, locale),
          formatDuration(limits.executionTimeoutMs.ceiling, locale),
        )}
        error={fieldErrors.timeout ?? (limitField === 'executionTimeoutMs' ? describeError(patch.error, t) : undefined)}
      />
      <CheckboxField
        label={t.compose.workflowSendWithoutReview}
        hint={t.compose.workflowSendWithoutReviewHint}
        checked={sendWithoutReview}
        disabled={readOnly}
        onChange={(event) => setSendWithoutReview(event.target.checked)}
        data-testid="settings-send-without-review"
      />
      <OneRunAtATimeFields
        form={serial}
        onChange={setSerial}
        disabled={readOnly}
        errors={{ coalesce: fieldErrors.coalesce, expression: keyExpressionError(patch.error, t) }}
      />
      <p className="text-xs text-muted">{t.workflows.settings.waitLimit(formatDuration(limits.waitMs.ceiling, locale))}</p>
      {!readOnly ? (
        <Button type="submit" variant="primary" loading={patch.isPending}>
          {patch.isPending ? t.workflows.settings.saving : t.workflows.settings.save}
        </Button>
      ) : null}
    </form>
  );
}
