'use client';

/**
 * A node's own settings (spec, Workflow graph): name, disabled, `onError`, retry (maxAttempts 1-10,
 * delayMs 1,000-3,600,000: both or neither), `timeoutMs` (5,000-1,800,000) and notes (≤ 2,000), with
 * the type's effective defaults as placeholders. Empty fields leave the setting out (the default applies).
 */
import { useId, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { CheckboxField, Input, Select, Textarea } from '@/app/ui/field';
import { FieldErrors, Hint, RequiredMark } from './field-frame';
import { normaliseNodeIssuePath } from './_lib/settings';
import type { FieldIssue } from './_lib/paths';

export type OnError = 'fail' | 'continue' | 'errorPort';

export interface NodeSettings {
  name: string;
  disabled?: boolean;
  onError?: OnError;
  retry?: { maxAttempts: number; delayMs: number };
  timeoutMs?: number;
  notes?: string;
}

export interface NodeSettingsFormProps {
  settings: NodeSettings;
  /** The type's effective defaults (`retry` of `trpc.nodeTypes.list`). */
  defaults: { maxAttempts: number; delayMs: number; timeoutMs: number };
  /** The settings after an edit (only the fields above; the caller merges them into its node). */
  onChange: (settings: NodeSettings) => void;
  /** Issues at node-level paths (`name`, `retry.maxAttempts`; `nodes[2].…` accepted). */
  issues?: readonly FieldIssue[];
  disabled?: boolean;
}

export const settingBounds = {
  maxAttempts: { min: 1, max: 10 },
  delayMs: { min: 1_000, max: 3_600_000 },
  timeoutMs: { min: 5_000, max: 1_800_000 },
  notes: 2_000,
  name: 200,
} as const;

const onErrorValues: OnError[] = ['fail', 'continue', 'errorPort'];

function withSetting<K extends keyof NodeSettings>(settings: NodeSettings, key: K, value: NodeSettings[K] | undefined): NodeSettings {
  const next = { ...settings };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

export function NodeSettingsForm({ settings, defaults, onChange, issues = [], disabled = false }: NodeSettingsFormProps) {
  const { t } = useI18n();
  const s = t.params.settings;
  const base = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const id = (field: string) => `settings-${base}-${field}`;
  const errorsAt = (path: string) => issues.filter((issue) => normaliseNodeIssuePath(issue.path) === path).map((issue) => issue.message);

  const setRetry = (field: 'maxAttempts' | 'delayMs', value: number | undefined) => {
    const current = settings.retry;
    const other = field === 'maxAttempts' ? 'delayMs' : 'maxAttempts';
    if (value === undefined) {
      // Both or neither: clearing one leaves the other only when it differs from the default.
      if (!current || current[other] === defaults[other]) onChange(withSetting(settings, 'retry', undefined));
      else onChange(withSetting(settings, 'retry', { ...current, [field]: defaults[field] }));
      return;
    }
    onChange(withSetting(settings, 'retry', { maxAttempts: current?.maxAttempts ?? defaults.maxAttempts, delayMs: current?.delayMs ?? defaults.delayMs, [field]: value }));
  };

  const nameErrors = [...(settings.name.trim() === '' ? [s.nameRequired] : []), ...errorsAt('name')];
  return (
    <div data-testid="node-settings-form" className="space-y-4">
      <div className="space-y-1.5">
        <label htmlFor={id('name')} className="block text-sm font-medium">
          {s.name}
          <RequiredMark />
        </label>
        <Input
          id={id('name')}
          value={settings.name}
          maxLength={settingBounds.name}
          disabled={disabled}
          aria-invalid={nameErrors.length > 0 ? true : undefined}
          aria-describedby={nameErrors.length > 0 ? `${id('name')}-error` : undefined}
          onChange={(event) => onChange({ ...settings, name: event.target.value })}
        />
        <FieldErrors messages={nameErrors} id={`${id('name')}-error`} />
      </div>

      <div className="space-y-1">
        <CheckboxField
          id={id('disabled')}
          label={s.disabled}
          hint={s.disabledHint}
          disabled={disabled}
          checked={settings.disabled === true}
          onChange={(event) => onChange({ ...settings, disabled: event.target.checked })}
        />
        <FieldErrors messages={errorsAt('disabled')} />
      </div>

      <div className="space-y-1.5">
        <label htmlFor={id('onError')} className="block text-sm font-medium">
          {s.onError}
        </label>
        <Select
          id={id('onError')}
          disabled={disabled}
          value={settings.onError ?? 'fail'}
          onChange={(event) => onChange({ ...settings, onError: event.target.value as OnError })}
        >
          {onErrorValues.map((value) => (
            <option key={value} value={value}>
              {s.onErrorOptions[value]}
            </option>
          ))}
        </Select>
        <FieldErrors messages={errorsAt('onError')} />
      </div>

      <fieldset className="space-y-3 rounded-md border border-line p-3">
        <legend className="px-1 text-sm font-medium">{s.retry}</legend>
        <NumberSetting
          id={id('maxAttempts')}
          label={s.maxAttempts}
          hint={s.maxAttemptsHint}
          value={settings.retry?.maxAttempts}
          placeholder={s.defaultPlaceholder(defaults.maxAttempts)}
          bounds={settingBounds.maxAttempts}
          disabled={disabled}
          errors={[...errorsAt('retry.maxAttempts'), ...errorsAt('retry')]}
          onChange={(value) => setRetry('maxAttempts', value)}
        />
        <NumberSetting
          id={id('delayMs')}
          label={s.delayMs}
          hint={s.delayMsHint}
          value={settings.retry?.delayMs}
          placeholder={s.defaultPlaceholder(defaults.delayMs)}
          bounds={settingBounds.delayMs}
          disabled={disabled}
          errors={errorsAt('retry.delayMs')}
          onChange={(value) => setRetry('delayMs', value)}
        />
      </fieldset>

      <NumberSetting
        id={id('timeoutMs')}
        label={s.timeoutMs}
        hint={s.timeoutMsHint}
        value={settings.timeoutMs}
        placeholder={s.defaultPlaceholder(defaults.timeoutMs)}
        bounds={settingBounds.timeoutMs}
        disabled={disabled}
        errors={errorsAt('timeoutMs')}
        onChange={(value) => onChange(withSetting(settings, 'timeoutMs', value))}
      />

      <div className="space-y-1.5">
        <label htmlFor={id('notes')} className="block text-sm font-medium">
          {s.notes}
        </label>
        <Textarea
          id={id('notes')}
          value={settings.notes ?? ''}
          maxLength={settingBounds.notes}
          disabled={disabled}
          aria-describedby={`${id('notes')}-hint`}
          onChange={(event) => onChange(withSetting(settings, 'notes', event.target.value === '' ? undefined : event.target.value))}
        />
        <Hint text={s.notesHint} id={`${id('notes')}-hint`} />
        <FieldErrors messages={errorsAt('notes')} />
      </div>
    </div>
  );
}

function NumberSetting({
  id,
  label,
  hint,
  value,
  placeholder,
  bounds,
  disabled,
  errors,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: number | undefined;
  placeholder: string;
  bounds: { min: number; max: number };
  disabled: boolean;
  errors: string[];
  onChange: (value: number | undefined) => void;
}) {
  const { t } = useI18n();
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? (value === undefined ? '' : String(value));
  const number = text.trim() === '' ? undefined : Number(text);
  const local =
    number === undefined
      ? null
      : !Number.isInteger(number)
        ? t.params.settings.wholeNumber
        : number < bounds.min || number > bounds.max
          ? t.params.settings.outOfRange(bounds.min, bounds.max)
          : null;
  const messages = [...(local ? [local] : []), ...errors];
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <Input
        id={id}
        type="number"
        inputMode="numeric"
        step={1}
        min={bounds.min}
        max={bounds.max}
        placeholder={placeholder}
        disabled={disabled}
        value={text}
        aria-invalid={messages.length > 0 ? true : undefined}
        aria-describedby={`${id}-hint${messages.length > 0 ? ` ${id}-error` : ''}`}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          if (next.trim() === '') onChange(undefined);
          else if (Number.isInteger(Number(next))) onChange(Number(next));
        }}
        onBlur={() => setDraft(null)}
      />
      <Hint text={hint} id={`${id}-hint`} />
      <FieldErrors messages={messages} id={`${id}-error`} />
    </div>
  );
}
