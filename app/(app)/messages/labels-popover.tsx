'use client';

/** Labels of the open thread: remove one, or add one (suggestions from the mailbox's personal folders). */
import { useId, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Folder } from '@/app/lib/mail-types';
import { Button } from '@/app/ui/button';
import { FieldError, Input } from '@/app/ui/field';
import { CloseIcon, TagIcon } from '@/app/ui/icons';
import { Popover, PopoverContent, PopoverTrigger } from '@/app/ui/popover';

export function LabelsPopover({
  labels,
  folders,
  onChange,
}: {
  labels: string[];
  folders: Folder[];
  onChange: (change: { add: string[]; remove: string[] }) => void;
}) {
  const { t } = useI18n();
  const w = t.webmail;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const suggestions = folders.filter((folder) => !folder.role && !labels.includes(folder.key)).map((folder) => folder.key);

  function add(event: FormEvent) {
    event.preventDefault();
    const label = text.trim();
    // Bounds of the service: 1-200 characters, no control characters.
    if (!label || label.length > 200 || [...label].some((char) => char.charCodeAt(0) < 32 || char.charCodeAt(0) === 127)) {
      setError(w.labelInvalid);
      return;
    }
    setError(null);
    setText('');
    if (!labels.includes(label)) onChange({ add: [label], remove: [] });
  }

  return (
    <div className="relative">
      <Popover>
        <PopoverTrigger asChild>
          <Button size="icon" variant="ghost" aria-label={w.actions.labels} title={w.actions.labels}>
            <TagIcon />
          </Button>
        </PopoverTrigger>
        <PopoverContent title={w.actions.labels} align="end" className="w-72">
          <div className="space-y-3 p-4 pt-3">
            {labels.length === 0 ? (
              <p className="text-sm text-muted">{w.noLabels}</p>
            ) : (
              <ul className="flex flex-wrap gap-1.5" aria-label={w.labels}>
                {labels.map((label) => (
                  <li key={label} className="flex items-center gap-1 rounded-md bg-brand/10 py-0.5 pr-0.5 pl-2 text-xs font-medium text-brand-fg">
                    {label}
                    <button type="button" className="rounded p-0.5 hover:bg-brand/15" aria-label={w.removeLabel(label)} onClick={() => onChange({ add: [], remove: [label] })}>
                      <CloseIcon size={12} />
                    </button>
                  </li>
                ))}
              </ul>
            )}
            <form onSubmit={add} className="flex gap-2">
              <label htmlFor={id} className="sr-only">
                {w.addLabel}
              </label>
              <Input id={id} controlSize="sm" list={`${id}-list`} placeholder={w.addLabel} maxLength={200} value={text} onChange={(event) => setText(event.target.value)} />
              <datalist id={`${id}-list`}>
                {suggestions.map((key) => (
                  <option key={key} value={key} />
                ))}
              </datalist>
              <Button type="submit" size="sm">
                {w.add}
              </Button>
            </form>
            {error ? <FieldError>{error}</FieldError> : null}
          </div>
        </PopoverContent>
      </Popover>
    </div>
  );
}
