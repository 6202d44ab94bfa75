'use client';

/**
 * "Undo mailbox changes" on a finished live run (issue 24 §4). The dialog first asks for the preview
 * (nothing changes) and shows what will be undone, what is left as it is and why, and the sends that
 * cannot be undone; confirming undoes the run and shows the result in place, item by item. The run's
 * page then keeps the summary (its detail carries it), so it survives a reload.
 */
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { UndoIcon } from '@/app/ui/icons';
import { Spinner } from '@/app/ui/spinner';
import { useUndoMutations, type UndoPreview, type UndoResult } from '../_lib/api';
import { undoErrorText } from '../_lib/undo-text';
import { PreviewItems, ResultItems, SentItems } from './undo-items';

function CloseFooter() {
  const { t } = useI18n();
  return (
    <DialogFooter>
      <DialogClose asChild>
        <Button variant="primary">{t.common.close}</Button>
      </DialogClose>
    </DialogFooter>
  );
}

function Checking() {
  const { t } = useI18n();
  return (
    <p role="status" className="flex items-center gap-2 py-6 text-sm text-muted" data-testid="undo-checking">
      <Spinner />
      {t.undo.checking}
    </p>
  );
}

function OthersNote({ others }: { others: number }) {
  const { t } = useI18n();
  return others > 0 ? (
    <p className="text-xs text-muted" data-testid="undo-others">
      {t.undo.others(others)}
    </p>
  ) : null;
}

function Result({ result }: { result: UndoResult }) {
  const { t, locale } = useI18n();
  const { undone, skipped, failed } = result.counts;
  const headline = useRef<HTMLHeadingElement>(null);
  // The button pressed is gone: the result's heading takes the focus, and a screen reader reads it.
  useEffect(() => headline.current?.focus(), []);
  return (
    <>
      <DialogBody className="space-y-4">
        <div role="status" data-testid="undo-result-summary" className="space-y-1">
          <h3 ref={headline} tabIndex={-1} className="text-sm font-semibold outline-none">
            {result.replayed ? t.undo.alreadyUndone(formatDateTime(result.undoneAt, locale)) : t.undo.resultTitle}
          </h3>
          <p className="text-sm">{t.undo.resultSummary(undone, skipped, failed)}</p>
        </div>
        <ResultItems items={result.items} />
        <SentItems sent={result.sent} />
      </DialogBody>
      <CloseFooter />
    </>
  );
}

function Preview({ preview, pending, error, onConfirm }: { preview: UndoPreview; pending: boolean; error: unknown; onConfirm: () => void }) {
  const { t, locale } = useI18n();
  if (preview.undoneAt) {
    return (
      <>
        <DialogBody>
          <Alert tone="info" testId="undo-already">
            {t.undo.alreadyUndone(formatDateTime(preview.undoneAt, locale))}
          </Alert>
        </DialogBody>
        <CloseFooter />
      </>
    );
  }
  const nothing = preview.counts.willUndo === 0;
  return (
    <>
      <DialogBody className="space-y-4">
        {error ? (
          <Alert tone="danger" testId="undo-error">
            {undoErrorText(error, t)}
          </Alert>
        ) : null}
        {nothing ? (
          <div className="rounded-lg border border-dashed border-line-strong px-4 py-6 text-center" data-testid="undo-nothing">
            <h3 className="text-sm font-semibold">{t.undo.nothing.title}</h3>
            <p className="mt-1 text-sm text-muted">{t.undo.nothing.body}</p>
          </div>
        ) : null}
        <PreviewItems items={preview.items} />
        <SentItems sent={preview.sent} />
        <OthersNote others={preview.others} />
      </DialogBody>
      {nothing ? (
        <CloseFooter />
      ) : (
        <DialogFooter>
          <DialogClose asChild>
            <Button disabled={pending}>{t.common.cancel}</Button>
          </DialogClose>
          <Button variant="primary" loading={pending} onClick={onConfirm} data-testid="undo-confirm">
            {pending ? t.undo.submitting : t.undo.submit(preview.counts.willUndo)}
          </Button>
        </DialogFooter>
      )}
    </>
  );
}

function UndoFlow({ executionId, onBusyChange }: { executionId: string; onBusyChange: (busy: boolean) => void }) {
  const { t } = useI18n();
  const mutations = useUndoMutations();
  const preview = useMutation(mutations.preview);
  const undo = useMutation(mutations.undo);
  const { mutate: check } = preview;
  useEffect(() => check({ id: executionId }), [check, executionId]);
  useEffect(() => onBusyChange(undo.isPending), [onBusyChange, undo.isPending]);

  if (undo.data) return <Result result={undo.data} />;
  if (preview.isError) {
    return (
      <>
        <DialogBody>
          <Alert
            tone="danger"
            testId="undo-preview-error"
            action={
              <Button size="sm" onClick={() => check({ id: executionId })}>
                {t.undo.retry}
              </Button>
            }
          >
            {undoErrorText(preview.error, t)}
          </Alert>
        </DialogBody>
        <CloseFooter />
      </>
    );
  }
  if (!preview.data) {
    return (
      <DialogBody>
        <Checking />
      </DialogBody>
    );
  }
  return <Preview preview={preview.data} pending={undo.isPending} error={undo.error} onConfirm={() => undo.mutate({ id: executionId })} />;
}

export function UndoDialog({ executionId, open, onOpenChange }: { executionId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  // While the undo runs the dialog stays open: its result is what the member waits for.
  const busy = useRef(false);
  const setBusy = useCallback((value: boolean) => {
    busy.current = value;
  }, []);
  return (
    <Dialog open={open} onOpenChange={(next) => (busy.current && !next ? undefined : onOpenChange(next))}>
      <DialogContent size="lg" title={t.undo.title} description={t.undo.description}>
        {open ? <UndoFlow executionId={executionId} onBusyChange={setBusy} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/** The run page's button: opens the dialog (`finish`: an undo stopped before the end). */
export function UndoButton({ finish, onClick }: { finish: boolean; onClick: () => void }) {
  const { t } = useI18n();
  return (
    <Button onClick={onClick} data-testid="undo-open">
      <UndoIcon />
      {finish ? t.undo.finish : t.undo.open}
    </Button>
  );
}
