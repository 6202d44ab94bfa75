'use client';

/**
 * The filter builder: conditions of column, operator and value fitting the column type, joined by
 * "all" or "any", up to the service's 20. Edits stay a draft until Apply.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { Checkbox, FieldError, Input, Select } from '@/app/ui/field';
import { CloseIcon, FilterIcon, PlusIcon } from '@/app/ui/icons';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '@/app/ui/popover';
import type { Column, FilterCondition, Match } from '../_lib/api';
import {
  conditionOf,
  draftOf,
  maxConditions,
  newDraft,
  operatorLabel,
  operatorsByType,
  valueShape,
  type DraftCondition,
  type DraftError,
} from '../_lib/filters';

function ValueInput({
  column,
  value,
  onChange,
  label,
  invalid,
  errorId,
}: {
  column: Column;
  value: string;
  onChange: (value: string) => void;
  label: string;
  invalid: boolean;
  errorId: string;
}) {
  const { t } = useI18n();
  const common = { 'aria-label': label, 'aria-invalid': invalid || undefined, 'aria-describedby': invalid ? errorId : undefined, controlSize: 'sm' as const };
  switch (column.type) {
    case 'boolean':
      return (
        <Select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="true">{t.tables.values.yes}</option>
          <option value="false">{t.tables.values.no}</option>
        </Select>
      );
    case 'select':
      return (
        <Select {...common} value={value} onChange={(event) => onChange(event.target.value)}>
          {column.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </Select>
      );
    case 'number':
      return <Input {...common} inputMode="decimal" value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'date':
      return <Input {...common} type="date" value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'datetime':
      return <Input {...common} type="datetime-local" value={value} onChange={(event) => onChange(event.target.value)} />;
    default:
      return <Input {...common} value={value} onChange={(event) => onChange(event.target.value)} />;
  }
}

function ConditionRow({
  draft,
  index,
  columns,
  error,
  onChange,
  onRemove,
}: {
  draft: DraftCondition;
  index: number;
  columns: Column[];
  error: DraftError | undefined;
  onChange: (next: DraftCondition) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  const f = t.tables.filter;
  const column = columns.find((c) => c.key === draft.column) ?? columns[0];
  const shape = valueShape(draft.op);
  const n = index + 1;
  const errorId = `filter-error-${draft.id}`;
  return (
    <li className="rounded-lg border border-line bg-subtle/30 p-2.5" data-testid="filter-condition" aria-label={f.conditionLabel(n)}>
      <div className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 sm:grid-cols-[minmax(0,11rem)_minmax(0,10rem)_minmax(0,1fr)_auto]">
        <Select
          controlSize="sm"
          aria-label={`${f.column} (${f.conditionLabel(n)})`}
          value={column.key}
          onChange={(event) => {
            const next = columns.find((c) => c.key === event.target.value);
            if (next) onChange({ ...newDraft(next), id: draft.id });
          }}
        >
          {columns.map((c) => (
            <option key={c.key} value={c.key}>
              {c.label}
            </option>
          ))}
        </Select>
        <div className="sm:hidden">
          <Button size="icon" variant="ghost" aria-label={f.removeCondition(n)} onClick={onRemove}>
            <CloseIcon />
          </Button>
        </div>
        <Select
          controlSize="sm"
          aria-label={`${f.operator} (${f.conditionLabel(n)})`}
          value={draft.op}
          onChange={(event) => onChange({ ...draft, op: event.target.value as DraftCondition['op'] })}
        >
          {operatorsByType[column.type].map((op) => (
            <option key={op} value={op}>
              {operatorLabel(op, column.type, t)}
            </option>
          ))}
        </Select>
        <div className="col-span-2 min-w-0 sm:col-span-1">
          {shape === 'one' ? (
            <ValueInput column={column} value={draft.value} onChange={(value) => onChange({ ...draft, value })} label={`${f.value} (${f.conditionLabel(n)})`} invalid={Boolean(error)} errorId={errorId} />
          ) : shape === 'two' ? (
            <div className="flex items-center gap-1.5">
              <ValueInput column={column} value={draft.value} onChange={(value) => onChange({ ...draft, value })} label={`${f.from} (${f.conditionLabel(n)})`} invalid={Boolean(error)} errorId={errorId} />
              <span className="shrink-0 text-xs text-muted">{f.and}</span>
              <ValueInput column={column} value={draft.value2} onChange={(value2) => onChange({ ...draft, value2 })} label={`${f.to} (${f.conditionLabel(n)})`} invalid={Boolean(error)} errorId={errorId} />
            </div>
          ) : shape === 'many' ? (
            column.type === 'select' ? (
              <fieldset className="flex flex-wrap gap-x-3 gap-y-1 py-1" aria-label={`${f.value} (${f.conditionLabel(n)})`}>
                {column.options.map((option) => (
                  <label key={option} className="inline-flex items-center gap-1.5 text-[13px]">
                    <Checkbox
                      checked={draft.values.includes(option)}
                      onChange={(event) =>
                        onChange({
                          ...draft,
                          values: event.target.checked ? [...draft.values, option] : draft.values.filter((v) => v !== option),
                        })
                      }
                    />
                    {option}
                  </label>
                ))}
              </fieldset>
            ) : (
              <div>
                <Input
                  controlSize="sm"
                  aria-label={`${f.value} (${f.conditionLabel(n)})`}
                  aria-invalid={Boolean(error) || undefined}
                  aria-describedby={error ? errorId : undefined}
                  value={draft.valuesText}
                  onChange={(event) => onChange({ ...draft, valuesText: event.target.value })}
                />
                <p className="mt-1 text-xs text-muted">{f.valuesHint}</p>
              </div>
            )
          ) : null}
          {error ? (
            <FieldError id={errorId} className="mt-1">
              {f.errors[error]}
            </FieldError>
          ) : null}
        </div>
        <div className="hidden sm:block">
          <Button size="icon" variant="ghost" aria-label={f.removeCondition(n)} onClick={onRemove}>
            <CloseIcon />
          </Button>
        </div>
      </div>
    </li>
  );
}

function FilterPanel({
  columns,
  conditions,
  match,
  seed,
  onApply,
}: {
  columns: Column[];
  conditions: FilterCondition[];
  match: Match;
  seed: Column | null;
  onApply: (conditions: FilterCondition[], match: Match) => void;
}) {
  const { t } = useI18n();
  const f = t.tables.filter;
  const [drafts, setDrafts] = useState<DraftCondition[]>(() => {
    const initial = conditions.map((condition) => draftOf(condition, columns));
    if (seed && initial.length < maxConditions) initial.push(newDraft(seed));
    if (initial.length === 0 && columns[0]) initial.push(newDraft(columns[0]));
    return initial;
  });
  const [nextMatch, setNextMatch] = useState<Match>(match);
  const [errors, setErrors] = useState<Record<number, DraftError>>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<number, DraftError> = {};
    const result: FilterCondition[] = [];
    for (const draft of drafts) {
      const parsed = conditionOf(draft, columns);
      if ('error' in parsed) found[draft.id] = parsed.error;
      else result.push(parsed.condition);
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    onApply(result, nextMatch);
  }

  return (
    <form onSubmit={submit} noValidate className="flex min-h-0 flex-1 flex-col">
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 pt-3 pb-4">
        {drafts.length > 1 ? (
          <fieldset className="flex flex-wrap items-center gap-2 text-sm">
            <legend className="sr-only">{f.match}</legend>
            <span className="text-muted" aria-hidden="true">
              {f.match}
            </span>
            <div className="inline-flex rounded-md border border-line-strong p-0.5">
              {(['all', 'any'] as const).map((value) => (
                <label
                  key={value}
                  className={cn(
                    'cursor-pointer rounded px-2.5 py-1 text-[13px] font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand',
                    nextMatch === value ? 'bg-brand/10 text-brand-fg' : 'text-muted hover:text-fg',
                  )}
                >
                  <input type="radio" name="match" value={value} className="sr-only" checked={nextMatch === value} onChange={() => setNextMatch(value)} />
                  {value === 'all' ? f.matchAll : f.matchAny}
                </label>
              ))}
            </div>
          </fieldset>
        ) : null}
        {drafts.length === 0 ? <p className="py-4 text-center text-sm text-muted">{f.none}</p> : null}
        <ol className="space-y-2">
          {drafts.map((draft, index) => (
            <ConditionRow
              key={draft.id}
              draft={draft}
              index={index}
              columns={columns}
              error={errors[draft.id]}
              onChange={(next) => {
                setDrafts((current) => current.map((d) => (d.id === draft.id ? next : d)));
                setErrors((current) => {
                  const rest = { ...current };
                  delete rest[draft.id];
                  return rest;
                });
              }}
              onRemove={() => setDrafts((current) => current.filter((d) => d.id !== draft.id))}
            />
          ))}
        </ol>
        <div className="flex items-center gap-3">
          <Button
            size="sm"
            onClick={() => columns[0] && setDrafts((current) => [...current, newDraft(columns[0])])}
            disabled={drafts.length >= maxConditions || columns.length === 0}
          >
            <PlusIcon />
            {f.addCondition}
          </Button>
          {drafts.length >= maxConditions ? <span className="text-xs text-muted">{f.max(maxConditions)}</span> : null}
        </div>
      </div>
      <div className="flex shrink-0 justify-between gap-2 rounded-b-xl border-t border-line bg-subtle/40 px-4 py-3">
        <Button size="sm" variant="ghost" onClick={() => onApply([], nextMatch)} disabled={conditions.length === 0 && drafts.length === 0}>
          {f.clearAll}
        </Button>
        <div className="flex gap-2">
          <PopoverClose asChild>
            <Button size="sm">{t.common.cancel}</Button>
          </PopoverClose>
          <Button size="sm" type="submit" variant="primary">
            {f.apply}
          </Button>
        </div>
      </div>
    </form>
  );
}

export function FilterBuilder({
  columns,
  conditions,
  match,
  open,
  seed,
  onOpenChange,
  onApply,
}: {
  columns: Column[];
  conditions: FilterCondition[];
  match: Match;
  open: boolean;
  /** Opened from a column's menu: a new condition on that column. */
  seed: Column | null;
  onOpenChange: (open: boolean) => void;
  onApply: (conditions: FilterCondition[], match: Match) => void;
}) {
  const { t } = useI18n();
  return (
    <div className="relative">
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>
          <Button
            aria-label={conditions.length ? t.tables.toolbar.filterActive(conditions.length) : undefined}
            className={cn(conditions.length > 0 && 'border-brand/40 text-brand-fg')}
            disabled={columns.length === 0}
          >
            <FilterIcon />
            {t.tables.toolbar.filter}
            {conditions.length > 0 ? <Badge tone="brand">{conditions.length}</Badge> : null}
          </Button>
        </PopoverTrigger>
        {open ? (
          <PopoverContent title={t.tables.filter.title}>
            <FilterPanel
              columns={columns}
              conditions={conditions}
              match={match}
              seed={seed}
              onApply={(next, nextMatch) => {
                onApply(next, nextMatch);
                onOpenChange(false);
              }}
            />
          </PopoverContent>
        ) : null}
      </Popover>
    </div>
  );
}
