'use client';

/** Menus on Radix (role="menu", arrow keys, typeahead). */
import * as Menu from '@radix-ui/react-dropdown-menu';
import type { ComponentProps } from 'react';
import { cn } from './cn';
import { CheckIcon } from './icons';

export const DropdownMenu = Menu.Root;
export const DropdownMenuTrigger = Menu.Trigger;
export const DropdownMenuRadioGroup = Menu.RadioGroup;

export function DropdownMenuContent({ className, sideOffset = 6, ...props }: ComponentProps<typeof Menu.Content>) {
  return (
    <Menu.Portal>
      <Menu.Content
        sideOffset={sideOffset}
        className={cn(
          'z-50 min-w-56 rounded-lg border border-line bg-surface p-1 text-sm text-fg shadow-lg animate-menu-in focus:outline-none',
          className,
        )}
        {...props}
      />
    </Menu.Portal>
  );
}

const itemClasses =
  'relative flex h-8 select-none items-center gap-2 rounded-md px-2 outline-none data-[highlighted]:bg-subtle data-[disabled]:opacity-50 [&_svg]:text-muted';

export function DropdownMenuItem({ className, ...props }: ComponentProps<typeof Menu.Item>) {
  return <Menu.Item className={cn(itemClasses, className)} {...props} />;
}

/** The check mark radio and checkbox items show when chosen. */
function ItemCheck() {
  return (
    <span className="absolute left-2 flex size-4 items-center justify-center">
      <Menu.ItemIndicator>
        <CheckIcon className="!text-brand-fg" />
      </Menu.ItemIndicator>
    </span>
  );
}

export function DropdownMenuRadioItem({ className, children, ...props }: ComponentProps<typeof Menu.RadioItem>) {
  return (
    <Menu.RadioItem className={cn(itemClasses, 'pl-8', className)} {...props}>
      <ItemCheck />
      {children}
    </Menu.RadioItem>
  );
}

export function DropdownMenuCheckboxItem({ className, children, ...props }: ComponentProps<typeof Menu.CheckboxItem>) {
  return (
    <Menu.CheckboxItem className={cn(itemClasses, 'pl-8', className)} {...props}>
      <ItemCheck />
      {children}
    </Menu.CheckboxItem>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof Menu.Label>) {
  return <Menu.Label className={cn('px-2 pt-1.5 pb-1 text-xs font-medium text-muted', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof Menu.Separator>) {
  return <Menu.Separator className={cn('-mx-1 my-1 h-px bg-line', className)} {...props} />;
}
