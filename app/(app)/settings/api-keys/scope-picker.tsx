'use client';

/**
 * Per-domain permission choice: none, read, or read and write (`<domain>:write` implies read, so a
 * domain contributes at most one scope).
 */
import { useId } from 'react';
import { scopeDomains, type Scope, type ScopeDomain } from '@/server/core/auth/scopes';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { FieldError } from '@/app/ui/field';

export type Level = 'none' | 'read' | 'write';
export type Levels = Record<ScopeDomain, Level>;

export function emptyLevels(): Levels {
  return Object.fromEntries(scopeDomains.map((domain) => [domain, 'none'])) as Levels;
}

export function scopesOf(levels: Levels): Scope[] {
  return scopeDomains.flatMap((domain) => (levels[domain] === 'none' ? [] : [`${domain}:${levels[domain]}` as Scope]));
}

const levelOrder: Level[] = ['none', 'read', 'write'];
const matrixColumns = 'grid grid-cols-[minmax(0,1fr)_repeat(3,4rem)] items-center gap-x-1';

function useLevelLabels(): Record<Level, string> {
  const { t } = useI18n();
  return { none: t.scopes.none, read: t.scopes.read, write: t.scopes.write };
}

/** Column titles of one half of the matrix (each radio also carries its own label). */
function MatrixHeader() {
  const { t } = useI18n();
  const labels = useLevelLabels();
  return (
    <div aria-hidden="true" className={cn(matrixColumns, 'border-b border-line pb-2 text-[11px] leading-tight font-medium text-muted')}>
      <span>{t.scopes.area}</span>
      {levelOrder.map((level) => (
        <span key={level} className="text-center">
          {labels[level]}
        </span>
      ))}
    </div>
  );
}

function DomainChoice({ domain, value, onChange, disabled }: { domain: ScopeDomain; value: Level; onChange: (level: Level) => void; disabled?: boolean }) {
  const { t } = useI18n();
  const labels = useLevelLabels();
  return (
    <fieldset className={cn(matrixColumns, 'rounded-md py-0.5 hover:bg-subtle/60')} disabled={disabled}>
      {/* Floated so it lays out as a grid cell; it still names the group. */}
      <legend className={cn('float-left py-1 pl-1 text-sm leading-tight', value === 'none' ? 'text-muted' : 'font-medium text-fg')}>
        {t.scopes.domains[domain]}
      </legend>
      {levelOrder.map((level) => (
        <label key={level} className="flex h-8 cursor-pointer items-center justify-center rounded-md has-disabled:cursor-not-allowed">
          <input
            type="radio"
            name={`scope-${domain}`}
            value={level}
            checked={value === level}
            onChange={() => onChange(level)}
            className="size-4 cursor-pointer accent-brand disabled:cursor-not-allowed"
          />
          <span className="sr-only">{labels[level]}</span>
        </label>
      ))}
    </fieldset>
  );
}

const halfway = Math.ceil(scopeDomains.length / 2);
const halves = [scopeDomains.slice(0, halfway), scopeDomains.slice(halfway)];

export function ScopePicker({
  levels,
  onChange,
  error,
  disabled,
}: {
  levels: Levels;
  onChange: (levels: Levels) => void;
  error?: string;
  disabled?: boolean;
}) {
  const { t } = useI18n();
  const headingId = useId();
  const errorId = useId();
  const chosen = scopesOf(levels).length;
  const setAll = (level: Level) => onChange(Object.fromEntries(scopeDomains.map((domain) => [domain, level])) as Levels);

  return (
    <div role="group" aria-labelledby={headingId} aria-describedby={error ? errorId : undefined} className="space-y-2">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <p id={headingId} className="text-sm font-medium">
            {t.apiKeys.createDialog.permissions}
          </p>
          <p className="text-xs text-muted" aria-live="polite">
            {t.apiKeys.createDialog.selected(chosen)}
          </p>
        </div>
        <div className="flex gap-1">
          <Button size="sm" variant="ghost" onClick={() => setAll('read')} disabled={disabled}>
            {t.apiKeys.createDialog.allRead}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setAll('write')} disabled={disabled}>
            {t.apiKeys.createDialog.allWrite}
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setAll('none')} disabled={disabled || chosen === 0}>
            {t.apiKeys.createDialog.clear}
          </Button>
        </div>
      </div>
      <div className={cn('grid gap-x-8 rounded-lg border bg-surface px-3 pt-2.5 pb-1.5 sm:grid-cols-2', error ? 'border-red-500' : 'border-line')}>
        {halves.map((half, index) => (
          <div key={index} className={cn(index > 0 && 'mt-3 sm:mt-0')}>
            <MatrixHeader />
            <div className="pt-1">
              {half.map((domain) => (
                <DomainChoice
                  key={domain}
                  domain={domain}
                  value={levels[domain]}
                  disabled={disabled}
                  onChange={(level) => onChange({ ...levels, [domain]: level })}
                />
              ))}
            </div>
          </div>
        ))}
      </div>
      {error ? (
        <FieldError id={errorId}>{error}</FieldError>
      ) : null}
    </div>
  );
}
