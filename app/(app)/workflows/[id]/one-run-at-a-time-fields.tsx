'use client';

/**
 * The "one run at a time" part of the run settings (issue 24 §3): the key (off, conversation, sender,
 * expression), the key expression, and the burst window. The form state is text; `oneRunAtATimeOf`
 * turns it into the PATCH value, or says which field is wrong.
 */
import type { Dictionary } from '@/app/i18n';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf } from '@/app/lib/errors';
import { SelectField, TextField } from '@/app/ui/field';
import type { WorkflowDetail } from '../_lib/api';

type SerialKeyKind = 'thread' | 'sender' | 'expression';

export interface OneRunAtATimeForm {
  by: SerialKeyKind | '';
  expression: string;
  coalesce: string;
}

export function oneRunAtATimeFormOf(workflow: Pick<WorkflowDetail, 'oneRunAtATime'>): OneRunAtATimeForm {
  const setting = workflow.oneRunAtATime;
  return { by: setting?.by ?? '', expression: setting?.expression ?? '', coalesce: setting && setting.coalesceSeconds > 0 ? String(setting.coalesceSeconds) : '' };
}

const maxCoalesceSeconds = 3_600;

/** The server's refusal of the key expression in the interface language, or undefined when the error is about something else. */
export function keyExpressionError(error: unknown, t: Dictionary): string | undefined {
  const info = appErrorOf(error);
  if (info?.details.field !== 'settings.oneRunAtATime.expression') return undefined;
  const problems = t.workflows.settings.keyExpressionProblems;
  switch (info.details.reason) {
    case 'required':
    case 'no_expression':
    case 'not_inline':
      return problems[info.details.reason];
    default:
      return problems.invalid(info.message);
  }
}

/** The PATCH value (null: off), or the field the browser refuses before asking the server. */
export function oneRunAtATimeOf(form: OneRunAtATimeForm): { value: { by: SerialKeyKind; expression: string | null; coalesceSeconds: number } | null } | { invalid: 'coalesce' } {
  if (form.by === '') return { value: null };
  const text = form.coalesce.trim();
  const seconds = text === '' ? 0 : Number(text);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > maxCoalesceSeconds) return { invalid: 'coalesce' };
  return { value: { by: form.by, expression: form.by === 'expression' ? form.expression.trim() : null, coalesceSeconds: seconds } };
}

export function OneRunAtATimeFields({
  form,
  onChange,
  disabled,
  errors,
}: {
  form: OneRunAtATimeForm;
  onChange: (next: OneRunAtATimeForm) => void;
  disabled: boolean;
  errors: { expression?: string; coalesce?: string };
}) {
  const { t } = useI18n();
  const text = t.workflows.settings;
  return (
    <fieldset className="space-y-3" data-testid="settings-one-run-at-a-time">
      <SelectField
        label={text.oneRunAtATime}
        hint={text.oneRunAtATimeHint}
        value={form.by}
        disabled={disabled}
        onChange={(event) => onChange({ ...form, by: event.target.value as OneRunAtATimeForm['by'] })}
      >
        <option value="">{text.oneRunAtATimeOptions.off}</option>
        <option value="thread">{text.oneRunAtATimeOptions.thread}</option>
        <option value="sender">{text.oneRunAtATimeOptions.sender}</option>
        <option value="expression">{text.oneRunAtATimeOptions.expression}</option>
      </SelectField>
      {form.by === 'expression' ? (
        <TextField
          label={text.keyExpression}
          hint={text.keyExpressionHint}
          value={form.expression}
          disabled={disabled}
          placeholder="{{ trigger.orderId }}"
          spellCheck={false}
          className="font-mono"
          maxLength={500}
          onChange={(event) => onChange({ ...form, expression: event.target.value })}
          error={errors.expression}
        />
      ) : null}
      {form.by !== '' ? (
        <TextField
          label={text.coalesce}
          hint={text.coalesceHint}
          optional={t.common.optional}
          inputMode="numeric"
          className="max-w-40"
          value={form.coalesce}
          disabled={disabled}
          placeholder="0"
          onChange={(event) => onChange({ ...form, coalesce: event.target.value })}
          error={errors.coalesce}
        />
      ) : null}
    </fieldset>
  );
}
