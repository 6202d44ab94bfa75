'use client';

/** Modal dialogs on Radix (role="dialog", focus trap, Escape, labelled by the title). */
import * as RadixDialog from '@radix-ui/react-dialog';
import * as RadixAlert from '@radix-ui/react-alert-dialog';
import type { ComponentProps, ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from './button';
import { cn } from './cn';
import { CloseIcon } from './icons';

export const Dialog = RadixDialog.Root;
export const DialogTrigger = RadixDialog.Trigger;
export const DialogClose = RadixDialog.Close;

const overlayClasses = 'fixed inset-0 z-40 bg-zinc-950/45 backdrop-blur-[1px] animate-overlay-in';
const panelClasses =
  'fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col ' +
  'rounded-xl border border-line bg-surface text-fg shadow-2xl animate-content-in focus:outline-none';
const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-3xl' } as const;

export function DialogContent({
  title,
  description,
  children,
  size = 'md',
  onInteractOutside,
  dismissible = true,
}: {
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  size?: keyof typeof widths;
  onInteractOutside?: (event: Event) => void;
  /** False: no close button, and neither Escape nor a click outside closes it (a step that must be done). */
  dismissible?: boolean;
}) {
  const { t } = useI18n();
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className={overlayClasses} />
      <RadixDialog.Content
        className={cn(panelClasses, widths[size])}
        onInteractOutside={dismissible ? onInteractOutside : (event) => event.preventDefault()}
        onEscapeKeyDown={dismissible ? undefined : (event) => event.preventDefault()}
        {...(description ? {} : { 'aria-describedby': undefined })}
      >
        <div className="flex items-start justify-between gap-4 px-6 pt-5">
          <div className="space-y-1">
            <RadixDialog.Title className="text-base font-semibold tracking-tight">{title}</RadixDialog.Title>
            {description ? <RadixDialog.Description className="text-sm text-muted">{description}</RadixDialog.Description> : null}
          </div>
          {dismissible ? (
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label={t.common.close} className="-mt-1 -mr-2 text-muted">
                <CloseIcon />
              </Button>
            </RadixDialog.Close>
          ) : null}
        </div>
        {children}
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/** The scrolling part of a dialog; put a <DialogFooter> after it (inside the same <form> if any). */
export function DialogBody({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn('min-h-0 flex-1 overflow-y-auto px-6 pt-4 pb-5', className)}>{children}</div>;
}

export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <div className="flex shrink-0 flex-col-reverse gap-2 rounded-b-xl border-t border-line bg-subtle/40 px-6 py-3.5 sm:flex-row sm:justify-end">
      {children}
    </div>
  );
}

/** The footer of a form dialog: Cancel (closes) and the submit button, both held while pending. */
export function FormDialogFooter({ pending, submitLabel, pendingLabel }: { pending: boolean; submitLabel: string; pendingLabel: string }) {
  const { t } = useI18n();
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button disabled={pending}>{t.common.cancel}</Button>
      </DialogClose>
      <Button type="submit" variant="primary" loading={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
    </DialogFooter>
  );
}

/** A form filling the dialog: scrolling fields, footer with the buttons always visible. */
export function DialogForm({ className, ...props }: ComponentProps<'form'>) {
  return <form method="post" noValidate className={cn('flex min-h-0 flex-1 flex-col', className)} {...props} />;
}

/** A panel sliding from the left edge (the navigation on small screens). */
export function SheetContent({ title, children }: { title: string; children: ReactNode }) {
  return (
    <RadixDialog.Portal>
      <RadixDialog.Overlay className={overlayClasses} />
      <RadixDialog.Content
        aria-describedby={undefined}
        className="fixed inset-y-0 left-0 z-50 flex w-72 max-w-[85vw] flex-col border-r border-line bg-surface shadow-2xl animate-sheet-in focus:outline-none"
      >
        <RadixDialog.Title className="sr-only">{title}</RadixDialog.Title>
        {children}
      </RadixDialog.Content>
    </RadixDialog.Portal>
  );
}

/**
 * A confirmation (role="alertdialog"). It stays open while the action runs, shows the action's error
 * inside, and can turn into a result view (`result`) with a single close button.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  confirmLabel,
  tone = 'danger',
  pending = false,
  confirmDisabled = false,
  error,
  result,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  tone?: 'danger' | 'primary';
  pending?: boolean;
  /** Holds the confirm button (e.g. until what the action affects is known). */
  confirmDisabled?: boolean;
  error?: ReactNode;
  result?: ReactNode;
  onConfirm: () => void;
}) {
  const { t } = useI18n();
  return (
    <RadixAlert.Root open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      <RadixAlert.Portal>
        <RadixAlert.Overlay className={overlayClasses} />
        <RadixAlert.Content className={cn(panelClasses, widths.sm)} {...(description || result ? {} : { 'aria-describedby': undefined })}>
          <div className="space-y-2 px-6 pt-5 pb-5">
            <RadixAlert.Title className="text-base font-semibold tracking-tight">{title}</RadixAlert.Title>
            {result ? (
              <RadixAlert.Description asChild>
                <div className="text-sm">{result}</div>
              </RadixAlert.Description>
            ) : (
              <>
                {description ? <RadixAlert.Description className="text-sm text-muted">{description}</RadixAlert.Description> : null}
                {children}
                {error ? <div className="pt-2">{error}</div> : null}
              </>
            )}
          </div>
          <DialogFooter>
            {result ? (
              <RadixAlert.Cancel asChild>
                <Button variant="primary">{t.common.close}</Button>
              </RadixAlert.Cancel>
            ) : (
              <>
                <RadixAlert.Cancel asChild>
                  <Button disabled={pending}>{t.common.cancel}</Button>
                </RadixAlert.Cancel>
                <Button variant={tone} loading={pending} disabled={confirmDisabled} onClick={onConfirm}>
                  {confirmLabel}
                </Button>
              </>
            )}
          </DialogFooter>
        </RadixAlert.Content>
      </RadixAlert.Portal>
    </RadixAlert.Root>
  );
}
