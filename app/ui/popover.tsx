'use client';

/**
 * A non-modal panel anchored under its trigger (filters, small forms): Radix Dialog without a
 * modal layer, so it has role="dialog" and a title, moves focus inside when it opens, closes on Escape
 * or a click outside and gives focus back to the trigger. Place <Popover> inside a `relative` box.
 */
import * as RadixDialog from '@radix-ui/react-dialog';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from './cn';

export function Popover(props: Omit<ComponentProps<typeof RadixDialog.Root>, 'modal'>) {
  return <RadixDialog.Root modal={false} {...props} />;
}

export const PopoverTrigger = RadixDialog.Trigger;
export const PopoverClose = RadixDialog.Close;

export function PopoverContent({
  title,
  children,
  align = 'start',
  className,
  onOpenAutoFocus,
}: {
  title: ReactNode;
  children: ReactNode;
  align?: 'start' | 'end';
  className?: string;
  onOpenAutoFocus?: (event: Event) => void;
}) {
  return (
    <RadixDialog.Content
      aria-describedby={undefined}
      onOpenAutoFocus={onOpenAutoFocus}
      className={cn(
        'absolute top-full z-40 mt-2 flex max-h-[min(36rem,calc(100dvh-8rem))] w-[min(44rem,calc(100vw-2rem))] flex-col',
        'rounded-xl border border-line bg-surface text-fg shadow-xl animate-menu-in focus:outline-none',
        align === 'end' ? 'right-0' : 'left-0',
        className,
      )}
    >
      <RadixDialog.Title className="shrink-0 px-4 pt-3.5 text-sm font-semibold">{title}</RadixDialog.Title>
      {children}
    </RadixDialog.Content>
  );
}
