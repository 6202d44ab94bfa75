'use client';

/**
 * After a send: "Sending… Undo" for the undo window (`undoUntil`), then "Message sent."; Undo calls
 * the undo route. A message sent to review says so. Announced politely (role="status").
 */
import { useEffect, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Button } from '@/app/ui/button';
import { useUndoSend } from './_lib/api';
import type { SendResult } from './compose-dialog';

type Phase = 'sending' | 'sent' | 'review' | 'undone';

function initialPhase(result: SendResult): Phase {
  if (result.message.reviewStatus === 'pending') return 'review';
  if (result.message.sendStatus === 'cancelled') return 'undone';
  return result.undoUntil && new Date(result.undoUntil).getTime() > Date.now() ? 'sending' : 'sent';
}

export function SendToast({ result, onDone }: { result: SendResult; onDone: () => void }) {
  const { t } = useI18n();
  const c = t.compose;
  const [phase, setPhase] = useState<Phase>(() => initialPhase(result));
  const undo = useUndoSend(() => setPhase('undone'));

  useEffect(() => {
    if (phase === 'sending') {
      const left = Math.max(0, new Date(result.undoUntil ?? 0).getTime() - Date.now());
      const timer = setTimeout(() => setPhase('sent'), left);
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(onDone, 5_000);
    return () => clearTimeout(timer);
  }, [phase, result.undoUntil, onDone]);

  const text = undo.isError
    ? c.undoFailed(describeError(undo.error, t))
    : phase === 'sending'
      ? c.sendingToast
      : phase === 'review'
        ? c.queuedForReview
        : phase === 'undone'
          ? c.undone
          : c.sent;
  return (
    <div
      role="status"
      data-testid="send-toast"
      data-phase={phase}
      className="fixed bottom-4 left-1/2 z-50 flex -translate-x-1/2 items-center gap-3 rounded-lg bg-zinc-900 px-4 py-2.5 text-sm text-white shadow-lg dark:bg-zinc-100 dark:text-zinc-900"
    >
      <span>{text}</span>
      {phase === 'sending' && !undo.isError ? (
        <Button size="sm" variant="ghost" className="text-inherit underline" loading={undo.isPending} onClick={() => undo.mutate({ id: result.message.id })} data-testid="send-undo">
          {c.undo}
        </Button>
      ) : (
        <Button size="icon" variant="ghost" className="text-inherit" aria-label={t.common.close} onClick={onDone}>
          ×
        </Button>
      )}
    </div>
  );
}
