'use client';

/** The builder's keyboard shortcuts, listed (opened with "?" or the toolbar). */
import { useI18n } from '@/app/i18n/client';
import { Dialog, DialogBody, DialogContent } from '@/app/ui/dialog';
import { shortcutList } from './use-builder-keys';

export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const mod = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘' : 'Ctrl';
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t.builder.shortcuts.title} description={t.builder.shortcuts.description}>
        <DialogBody>
          <dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1.5 text-sm" data-testid="shortcuts-list">
            {shortcutList.map((shortcut) => (
              <div key={shortcut.action} className="contents">
                <dt>{t.builder.shortcuts.actions[shortcut.action]}</dt>
                <dd className="font-mono text-xs text-muted">{shortcut.keys.replaceAll('mod', mod)}</dd>
              </div>
            ))}
          </dl>
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
