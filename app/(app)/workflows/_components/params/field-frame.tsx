'use client';

/** The frame of a generated field: label with its required mark, the expression switch, hint and errors. */
import type { ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';
import { useFormContext } from './form-context';

/** A description with `code` spans, as the node schemas write them. */
export function Hint({ text, id, className }: { text: string; id?: string; className?: string }) {
  const parts = text.split(/(`[^`]+`)/g);
  return (
    <p id={id} className={cn('text-xs text-muted', className)}>
      {parts.map((part, index) =>
        part.startsWith('`') && part.endsWith('`') && part.length > 2 ? (
          <code key={index} className="rounded bg-subtle px-1 font-mono text-[11px]">
            {part.slice(1, -1)}
          </code>
        ) : (
          part
        ),
      )}
    </p>
  );
}

export function RequiredMark() {
  const { t } = useI18n();
  return (
    <span className="ml-0.5 text-red-600 dark:text-red-400" title={t.params.form.required}>
      <span aria-hidden="true">*</span>
      <span className="sr-only"> ({t.params.form.required})</span>
    </span>
  );
}

export function FieldErrors({ messages, id }: { messages: string[]; id?: string }) {
  if (messages.length === 0) return null;
  return (
    <div id={id}>
      {messages.map((message, index) => (
        <p key={index} data-testid="field-error" className="text-xs font-medium text-red-600 dark:text-red-400">
          {message}
        </p>
      ))}
    </div>
  );
}

/** The `fx` switch between a typed control and an expression. */
export function ExpressionSwitch({ on, onToggle }: { on: boolean; onToggle: () => void }) {
  const { t, disabled } = useFormContext();
  return (
    <button
      type="button"
      data-testid="expression-switch"
      aria-pressed={on}
      aria-label={on ? t.form.useFixedValue : t.form.useExpression}
      title={on ? t.form.useFixedValue : t.form.useExpression}
      disabled={disabled}
      onClick={onToggle}
      className={cn(
        'rounded px-1.5 font-mono text-[11px] italic leading-5 ring-1 ring-inset transition-colors',
        on ? 'bg-brand/10 text-brand-fg ring-brand/30' : 'text-muted ring-line-strong/60 hover:bg-subtle',
      )}
    >
      fx
    </button>
  );
}

export interface FrameProps {
  /** The control's id (a `<label for>` target) or, for composite controls, the label's own id is used. */
  controlId: string;
  label: ReactNode;
  required?: boolean;
  description?: string;
  errors: string[];
  /** The `fx` switch, when the field offers one. */
  expression?: { on: boolean; onToggle: () => void };
  /** Extra control next to the label (a kind selector, Leave out). */
  aside?: ReactNode;
  /** Set for controls that are not labelable (a CodeMirror editor, a group): label by id instead. */
  labelledControl?: boolean;
  children: ReactNode;
  path: string;
}

export function FieldFrame({ controlId, label, required, description, errors, expression, aside, labelledControl = true, children, path }: FrameProps) {
  return (
    <div className="space-y-1.5" data-field-path={path}>
      <div className="flex items-center justify-between gap-2">
        {labelledControl ? (
          <label htmlFor={controlId} id={`${controlId}-label`} className="block text-sm font-medium text-fg">
            {label}
            {required ? <RequiredMark /> : null}
          </label>
        ) : (
          <span id={`${controlId}-label`} className="block text-sm font-medium text-fg">
            {label}
            {required ? <RequiredMark /> : null}
          </span>
        )}
        <div className="flex items-center gap-1.5">
          {aside}
          {expression ? <ExpressionSwitch on={expression.on} onToggle={expression.onToggle} /> : null}
        </div>
      </div>
      {children}
      {description ? <Hint text={description} id={`${controlId}-hint`} /> : null}
      <FieldErrors messages={errors} id={`${controlId}-error`} />
    </div>
  );
}

export function describedBy(controlId: string, description: string | undefined, errors: string[]): string | undefined {
  return [description ? `${controlId}-hint` : null, errors.length > 0 ? `${controlId}-error` : null].filter(Boolean).join(' ') || undefined;
}
