'use client';

/** The list of keyboard shortcuts, in a popover (opened by its button or by "?"). */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { KeyboardIcon } from '@/app/ui/icons';
import { Popover, PopoverContent, PopoverTrigger } from '@/app/ui/popover';
import { shortcuts } from './use-shortcuts';

export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const w = t.webmail;
  return (
    <div className="relative">
      <Popover open={open} onOpenChange={onOpenChange}>
        <PopoverTrigger asChild>
          <Button size="icon" variant="ghost" aria-label={w.shortcuts.title} title={w.shortcuts.title}>
            <KeyboardIcon />
          </Button>
        </PopoverTrigger>
        <PopoverContent title={w.shortcuts.title} align="end" className="w-80">
          <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 p-4 pt-3 text-sm" data-testid="shortcuts-help">
            {shortcuts.map(({ keys, command }) => (
              <div key={command} className="contents">
                <dt className="flex gap-1">
                  {keys.map((key) => (
                    <kbd key={key} className="min-w-6 rounded border border-line-strong bg-subtle px-1.5 py-0.5 text-center font-mono text-xs">
                      {key}
                    </kbd>
                  ))}
                </dt>
                <dd>{w.shortcuts.commands[command]}</dd>
              </div>
            ))}
          </dl>
          <p className="px-4 pb-4 text-xs text-muted">{w.shortcuts.note}</p>
        </PopoverContent>
      </Popover>
    </div>
  );
}
