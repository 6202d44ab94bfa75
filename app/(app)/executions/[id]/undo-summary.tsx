'use client';

/**
 * What the run page says of the run's undo (issue 24 §4), from the run's detail so it survives a
 * reload: "Undone on <date>: N restored, M skipped", an undo running now, or one that stopped before
 * the end (the page's "Finish undoing" completes it).
 */
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import type { UndoSummary } from '../_lib/api';

export function UndoSummaryNotice({ undo, className }: { undo: UndoSummary; className?: string }) {
  const { t, locale } = useI18n();
  const s = t.undo.summary;
  if (undo.status === 'running') {
    return (
      <Alert tone="info" testId="execution-undo-summary" className={className}>
        {s.running}
      </Alert>
    );
  }
  if (undo.status === 'interrupted') {
    return (
      <Alert tone="warning" testId="execution-undo-summary" className={className} live="none">
        {s.interrupted}
      </Alert>
    );
  }
  const { undone, skipped, failed, sent } = undo.counts;
  return (
    <Alert tone="success" testId="execution-undo-summary" className={className} live="none" title={s.done(undo.undoneAt ? formatDateTime(undo.undoneAt, locale) : '—', s.counts(undone, skipped, failed))}>
      {sent > 0 || undo.by.apiKeyId ? (
        <>
          {sent > 0 ? <p>{s.sent(sent)}</p> : null}
          {undo.by.apiKeyId ? <p className="text-xs">{s.throughKey}</p> : null}
        </>
      ) : null}
    </Alert>
  );
}
