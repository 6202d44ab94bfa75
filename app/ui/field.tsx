'use client';

/** Form fields: a real <label for>, a hint and an error tied to the control with aria-describedby. */
import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from './cn';

const controlBase =
  'block w-full rounded-md border border-line-strong bg-surface px-3 text-sm text-fg shadow-xs transition-colors ' +
  'placeholder:text-muted/70 focus-visible:border-brand focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-brand/30 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-red-500 aria-invalid:focus-visible:outline-red-500/30';

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('block text-sm font-medium text-fg', className)} {...props} />;
}

const heights = { sm: 'h-8 text-[13px]', md: 'h-9' } as const;

export function Input({ className, controlSize = 'md', ...props }: ComponentProps<'input'> & { controlSize?: keyof typeof heights }) {
  return <input className={cn(controlBase, heights[controlSize], className)} {...props} />;
}

export function Select({ className, children, controlSize = 'md', ...props }: ComponentProps<'select'> & { controlSize?: keyof typeof heights }) {
  return (
    <div className="relative">
      <select className={cn(controlBase, heights[controlSize], 'appearance-none pr-8', className)} {...props}>
        {children}
      </select>
      <svg
        aria-hidden="true"
        viewBox="0 0 24 24"
        className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <path d="m7 15 5 5 5-5M7 9l5-5 5 5" />
      </svg>
    </div>
  );
}

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  optional?: string;
}

function useFieldIds(id?: string) {
  const generated = useId();
  const controlId = id ?? generated;
  return { controlId, hintId: `${controlId}-hint`, errorId: `${controlId}-error` };
}

/** A field's error under its control (`id` for the control's aria-describedby). */
export function FieldError({ id, className, role, children }: { id?: string; className?: string; role?: 'alert'; children: ReactNode }) {
  return (
    <p id={id} className={cn(className, 'text-xs font-medium text-red-600 dark:text-red-400')} role={role}>
      {children}
    </p>
  );
}

function describedBy(hint: ReactNode, error: ReactNode, ids: { hintId: string; errorId: string }) {
  return [hint ? ids.hintId : null, error ? ids.errorId : null].filter(Boolean).join(' ') || undefined;
}

function Frame({ label, hint, error, optional, controlId, hintId, errorId, children }: FieldFrameProps & ReturnType<typeof useFieldIds> & { children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={controlId}>
        {label}
        {optional ? <span className="ml-1 font-normal text-muted">({optional})</span> : null}
      </Label>
      {children}
      {hint ? (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

export function TextField({ label, hint, error, optional, id, ...props }: FieldFrameProps & ComponentProps<'input'>) {
  const ids = useFieldIds(id);
  return (
    <Frame label={label} hint={hint} error={error} optional={optional} {...ids}>
      <Input id={ids.controlId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(hint, error, ids)} {...props} />
    </Frame>
  );
}

export function SelectField({ label, hint, error, optional, id, children, ...props }: FieldFrameProps & ComponentProps<'select'>) {
  const ids = useFieldIds(id);
  return (
    <Frame label={label} hint={hint} error={error} optional={optional} {...ids}>
      <Select id={ids.controlId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(hint, error, ids)} {...props}>
        {children}
      </Select>
    </Frame>
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(controlBase, 'min-h-20 py-2 leading-5', className)} {...props} />;
}

export function TextareaField({ label, hint, error, optional, id, ...props }: FieldFrameProps & ComponentProps<'textarea'>) {
  const ids = useFieldIds(id);
  return (
    <Frame label={label} hint={hint} error={error} optional={optional} {...ids}>
      <Textarea id={ids.controlId} aria-invalid={error ? true : undefined} aria-describedby={describedBy(hint, error, ids)} {...props} />
    </Frame>
  );
}

export function Checkbox({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return <input type="checkbox" className={cn('size-4 shrink-0 rounded border-line-strong accent-[var(--brand)]', className)} {...props} />;
}

/** A checkbox with its label on the right and an optional hint under it. */
export function CheckboxField({ label, hint, id, className, ...props }: { label: ReactNode; hint?: ReactNode } & Omit<ComponentProps<'input'>, 'type'>) {
  const ids = useFieldIds(id);
  return (
    <div className={cn('flex items-start gap-2.5', className)}>
      <Checkbox id={ids.controlId} aria-describedby={hint ? ids.hintId : undefined} className="mt-0.5" {...props} />
      <div className="min-w-0">
        <label htmlFor={ids.controlId} className="block text-sm font-medium">
          {label}
        </label>
        {hint ? (
          <p id={ids.hintId} className="text-xs text-muted">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
