'use client';

/**
 * After an archive: "Conversation archived. Undo" for a few seconds (./_lib/undo.ts); Undo moves it back
 * to the inbox and opens it again. Announced politely (role="status"), like the send toast.
 */
import { useEffect, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { undoToastMs } from './_lib/undo';

export function UndoToast({ onUndo, onDone }: { onUndo: () => void; onDone: () => void }) {
  const { t } = useI18n();
  const w = t.webmail;
  const [undone, setUndone] = useState(false);
  useEffect(() => {
    const timer = setTimeout(onDone, undone ? 3_000 : undoToastMs);
    return () => clearTimeout(timer);
  }, [undone, onDone]);
  return (
    <div
      role="status"
      data-testid="archive-toast"
      className="fixed bottom-16 left-1/2 z-50 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-zinc-900 px-4 py-2.5 text-sm text-white shadow-lg dark:bg-zinc-100 dark:text-zinc-900"
    >
      <span>{undone ? w.archiveUndone : w.archivedToast}</span>
      {undone ? (
        <Button size="icon" variant="ghost" className="text-inherit" aria-label={t.common.close} onClick={onDone}>
          ×
        </Button>
      ) : (
        <Button
          size="sm"
          variant="ghost"
          className="text-inherit underline"
          data-testid="archive-undo"
          onClick={() => {
            setUndone(true);
            onUndo();
          }}
        >
          {w.undoArchive}
        </Button>
      )}
    </div>
  );
}
