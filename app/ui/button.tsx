import type { ComponentProps } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

const variants = {
  primary: 'bg-brand text-on-brand shadow-xs hover:bg-brand/90 active:bg-brand/85',
  secondary: 'border border-line-strong bg-surface text-fg shadow-xs hover:bg-subtle',
  ghost: 'text-fg hover:bg-subtle',
  danger: 'bg-red-600 text-white shadow-xs hover:bg-red-700 dark:bg-red-500 dark:hover:bg-red-600',
  dangerGhost: 'text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950/50',
} as const;

const sizes = {
  sm: 'h-8 px-2.5 text-[13px]',
  md: 'h-9 px-3.5 text-sm',
  icon: 'size-8',
} as const;

export type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Shows a spinner and disables the button while an action runs. */
  loading?: boolean;
};

export function buttonClasses(variant: keyof typeof variants = 'secondary', size: keyof typeof sizes = 'md', className?: string) {
  return cn(
    'inline-flex shrink-0 select-none items-center justify-center gap-1.5 whitespace-nowrap rounded-md font-medium transition-colors',
    'disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  );
}

export function Button({ variant = 'secondary', size = 'md', loading = false, disabled, className, children, type = 'button', ...props }: ButtonProps) {
  return (
    <button type={type} disabled={disabled || loading} aria-busy={loading || undefined} className={buttonClasses(variant, size, className)} {...props}>
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
