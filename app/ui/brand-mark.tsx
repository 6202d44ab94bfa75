/** The instance's logo, or its initial on the brand colour next to its name. */
import { cn } from './cn';

export function BrandMark({
  name,
  logoLight,
  logoDark,
  size = 'md',
  className,
}: {
  name: string;
  logoLight: string | null;
  logoDark: string | null;
  size?: 'md' | 'lg';
  className?: string;
}) {
  if (logoLight) {
    return (
      <picture className={cn('block', className)}>
        {logoDark ? <source srcSet={logoDark} media="(prefers-color-scheme: dark)" /> : null}
        {/* A plain <img> in <picture>: logos come from the instance's configuration, any host (next/image would need each host allowed). */}
        <img src={logoLight} alt={name} className={size === 'lg' ? 'h-9 w-auto' : 'h-7 w-auto'} />
      </picture>
    );
  }
  return (
    <span className={cn('flex min-w-0 items-center gap-2.5', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'flex shrink-0 items-center justify-center rounded-lg bg-brand font-semibold text-on-brand shadow-xs',
          size === 'lg' ? 'size-9 text-base' : 'size-7 text-sm',
        )}
      >
        {name.trim().charAt(0).toUpperCase() || 'M'}
      </span>
      <span className={cn('truncate font-semibold tracking-tight', size === 'lg' ? 'text-lg' : 'text-[15px]')}>{name}</span>
    </span>
  );
}
