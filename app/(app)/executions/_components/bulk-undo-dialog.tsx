'use client';

/**
 * The workflow's "Undo runs…" (issue 24 §4): after a rule misbehaved, put back the mailbox changes of
 * its runs in a window (the last 24 hours by default). A dry run first — how many runs, and each run's
 * changes to undo, to leave, already sent — then the undo itself, with the same per-run results. The
 * server takes 100 runs per call at most: when more remain, undoing again continues.
 */
import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Badge, type BadgeTone } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm } from '@/app/ui/dialog';
import { TextField } from '@/app/ui/field';
import { useUndoMutations, type BulkUndoAnswer } from '../_lib/api';
import { runRefusalText, undoErrorText } from '../_lib/undo-text';
import { defaultUndoWindow, undoWindowOf } from '../_lib/undo-window';

/** Runs per call: the route's largest page. */
const runsPerCall = 100;

const outcomeTones: Record<string, BadgeTone> = { undone: 'success', already_undone: 'neutral', preview: 'brand', refused: 'danger' };

function RunResults({ answer }: { answer: BulkUndoAnswer }) {
  const { t, locale } = useI18n();
  const b = t.undo.bulk;
  const { undone, skipped, failed, sent } = answer.totals;
  return (
    <section aria-label={answer.dryRun ? b.previewTitle(answer.count) : b.doneTitle(answer.count)} className="space-y-2" data-testid="bulk-undo-results" data-dry-run={answer.dryRun}>
      <div role="status">
        <h3 className="text-sm font-semibold" data-testid="bulk-undo-title">
          {answer.dryRun ? b.previewTitle(answer.count) : b.doneTitle(answer.count)}
        </h3>
        {answer.count > 0 ? (
          <p className="text-sm text-muted" data-testid="bulk-undo-totals">
            {answer.dryRun ? b.previewTotals(undone, skipped, sent) : b.totals(undone, skipped, failed, sent)}
          </p>
        ) : (
          <p className="text-sm text-muted">{b.none}</p>
        )}
      </div>
      {answer.runs.length > 0 ? (
        <ul className="max-h-72 divide-y divide-line overflow-y-auto rounded-md border border-line">
          {answer.runs.map((run) => (
            <li key={run.executionId} className="flex items-start gap-3 px-3 py-2 text-sm" data-testid="bulk-undo-run" data-outcome={run.outcome}>
              <Badge tone={outcomeTones[run.outcome] ?? 'neutral'} className="mt-0.5">
                {b.outcomes[run.outcome] ?? run.outcome}
              </Badge>
              <span className="min-w-0 flex-1">
                <Link href={`/executions/${run.executionId}`} className="block truncate font-medium text-brand-fg hover:underline">
                  {run.subject?.trim() ? t.undo.quoted(run.subject) : formatDateTime(run.createdAt, locale)}
                </Link>
                <span className="block text-xs text-muted">
                  {run.subject?.trim() ? `${formatDateTime(run.createdAt, locale)} · ` : ''}
                  {run.counts
                    ? run.outcome === 'preview'
                      ? b.previewTotals(run.counts.undone, run.counts.skipped, run.counts.sent)
                      : b.totals(run.counts.undone, run.counts.skipped, run.counts.failed, run.counts.sent)
                    : runRefusalText(run.error, t)}
                </span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {answer.hasMore ? (
        <Alert tone="info" testId="bulk-undo-more" live="none">
          {b.more}
        </Alert>
      ) : null}
    </section>
  );
}

function BulkUndoForm({ workflowId }: { workflowId: string }) {
  const { t } = useI18n();
  const b = t.undo.bulk;
  const mutations = useUndoMutations();
  const [fields, setFields] = useState(() => defaultUndoWindow());
  const [invalid, setInvalid] = useState(false);
  const [answer, setAnswer] = useState<BulkUndoAnswer | null>(null);
  const preview = useMutation({ ...mutations.bulk, onSuccess: setAnswer });
  const undo = useMutation({ ...mutations.bulk, onSuccess: setAnswer });
  const error = undo.error ?? preview.error;
  const pending = preview.isPending || undo.isPending;
  // The undo needs a dry run of the same window first, that found runs to undo (or, after an undo, more left).
  const canUndo = answer !== null && ((answer.dryRun && answer.count > 0) || (!answer.dryRun && answer.hasMore));

  function change(key: 'from' | 'to', value: string) {
    setFields((current) => ({ ...current, [key]: value }));
    setInvalid(false);
    setAnswer(null);
    preview.reset();
    undo.reset();
  }

  function send(dryRun: boolean) {
    const window = undoWindowOf(fields);
    if (!window) {
      setInvalid(true);
      return;
    }
    (dryRun ? preview : undo).mutate({ id: workflowId, ...window, limit: runsPerCall, dryRun });
  }

  // Enter in a field previews: undoing is only ever the button's, after a look at what it will do.
  function submit(event: FormEvent) {
    event.preventDefault();
    send(true);
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {error ? (
          <Alert tone="danger" testId="bulk-undo-error">
            {undoErrorText(error, t)}
          </Alert>
        ) : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField label={b.from} name="from" type="datetime-local" value={fields.from} onChange={(event) => change('from', event.target.value)} error={invalid ? b.windowInvalid : undefined} />
          <TextField label={b.to} name="to" type="datetime-local" value={fields.to} onChange={(event) => change('to', event.target.value)} />
        </div>
        <p className="text-xs text-muted">{b.windowHint}</p>
        <Button type="submit" loading={preview.isPending} disabled={undo.isPending} data-testid="bulk-undo-preview">
          {preview.isPending ? b.previewing : b.preview}
        </Button>
        {answer ? <RunResults answer={answer} /> : null}
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button disabled={pending}>{t.common.close}</Button>
        </DialogClose>
        <Button variant="primary" loading={undo.isPending} disabled={!canUndo || preview.isPending} onClick={() => send(false)} data-testid="bulk-undo-submit">
          {undo.isPending ? b.submitting : b.submit}
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}

export function BulkUndoDialog({ workflowId, open, onOpenChange }: { workflowId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent size="lg" title={t.undo.bulk.title} description={t.undo.bulk.description}>
        {open ? <BulkUndoForm workflowId={workflowId} /> : null}
      </DialogContent>
    </Dialog>
  );
}
