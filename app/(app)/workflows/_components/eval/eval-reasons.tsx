'use client';

/**
 * Why an evaluation's cases would not run, summed up: one line per reason, the most frequent first
 * ("58 skipped: automatic mail guardrail; include automatic mail?"), and where a trigger option lets
 * that kind of mail in, a button that turns it on in the draft (useIncludeInDraft). Try again to see it.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { inclusionOf, reasonCode, reasonLabel } from '@/app/lib/why-text';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { noMailTrigger, useIncludeInDraft, type EvalRun } from './api';

export function EvalReasons({ run, workflowId, readOnly = false }: { run: Pick<EvalRun, 'reasons' | 'status'>; workflowId: string; readOnly?: boolean }) {
  const { t } = useI18n();
  const w = t.why;
  const include = useIncludeInDraft(workflowId);
  const [included, setIncluded] = useState<string | null>(null);
  if (run.reasons.length === 0) return null;
  const optionName = (option: string) => w.options[option] ?? option;
  return (
    <section className="flex flex-col gap-1" aria-label={w.eval.reasonsTitle} data-testid="eval-reasons">
      <h3 className="text-xs font-semibold text-muted">{w.eval.reasonsTitle}</h3>
      <ul className="flex flex-col gap-1 text-sm">
        {run.reasons.map((reason) => {
          const option = inclusionOf(reason);
          return (
            <li key={reasonCode(reason)} className="flex flex-wrap items-center gap-2" data-testid="eval-reason" title={reasonCode(reason)}>
              <span>
                {option && w.eval.questions[option]
                  ? w.eval.withQuestion(w.eval.skipped(reason.count, reasonLabel(reason, w)), w.eval.questions[option])
                  : w.eval.skipped(reason.count, reasonLabel(reason, w))}
              </span>
              {option && !readOnly ? (
                <Button
                  size="sm"
                  variant="secondary"
                  loading={include.isPending && include.variables === option}
                  disabled={include.isPending || included === option}
                  onClick={() =>
                    include.mutate(option, {
                      onSuccess: () => setIncluded(option),
                    })
                  }
                  data-testid="eval-include"
                  data-option={option}
                >
                  {include.isPending && include.variables === option ? w.eval.including : w.eval.include(optionName(option))}
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      {included ? (
        <Alert tone="success" testId="eval-included">
          {w.eval.included(optionName(included))}
        </Alert>
      ) : null}
      {include.isError ? (
        <Alert tone="danger" testId="eval-include-error">
          {include.error instanceof Error && include.error.message === noMailTrigger ? w.eval.noMailTrigger : w.eval.includeFailed}
        </Alert>
      ) : null}
    </section>
  );
}
