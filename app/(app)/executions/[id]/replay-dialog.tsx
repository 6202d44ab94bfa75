'use client';

/**
 * Replay a failed or cancelled run: from the start or from the failed step, on the published or the
 * original version. "Preview effects" asks the server for a dry run listing the external effects that
 * would happen again, before anything starts.
 */
import { useMutation } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm } from '@/app/ui/dialog';
import { useExecutionMutations, type ExecutionDetail } from '../_lib/api';
import { replayErrorText } from '../_lib/replay-errors';

type From = 'start' | 'failed_step';
type Version = 'published' | 'original';
type Effect = { nodeId: string; nodeName: string; kind: string; description: string };

function Choice<T extends string>({ name, value, checked, onChange, label, hint }: { name: string; value: T; checked: boolean; onChange: (value: T) => void; label: string; hint?: ReactNode }) {
  return (
    <label className="flex cursor-pointer items-start gap-2.5 rounded-md border border-line px-3 py-2 has-[:checked]:border-brand has-[:checked]:bg-brand/5">
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} className="mt-1 accent-[var(--brand)]" />
      <span>
        <span className="block text-sm font-medium">{label}</span>
        {hint ? <span className="block text-xs text-muted">{hint}</span> : null}
      </span>
    </label>
  );
}

function ReplayForm({ execution, onDone }: { execution: ExecutionDetail; onDone: () => void }) {
  const { t } = useI18n();
  const r = t.executions.replayDialog;
  const router = useRouter();
  const mutations = useExecutionMutations();
  const canFromFailed = execution.status === 'failed';
  const [from, setFrom] = useState<From>(canFromFailed ? 'failed_step' : 'start');
  const [version, setVersion] = useState<Version>('published');
  const [effects, setEffects] = useState<Effect[] | null>(null);

  const preview = useMutation({
    ...mutations.replay,
    onSuccess: (answer) => setEffects('dryRun' in answer ? answer.effects : []),
  });
  const replay = useMutation({
    ...mutations.replay,
    onSuccess: (answer) => {
      if (!('executionId' in answer)) return;
      onDone();
      router.push(`/executions/${answer.executionId}`);
    },
  });
  const error = replay.error ?? preview.error;

  function choose<T>(set: (value: T) => void) {
    return (value: T) => {
      set(value);
      setEffects(null);
      preview.reset();
      replay.reset();
    };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    replay.mutate({ id: execution.id, from, version, dryRun: false });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {error ? (
          <Alert tone="danger" testId="replay-error">
            {replayErrorText(error, t)}
          </Alert>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-semibold">{r.from}</legend>
          <Choice name="from" value="start" checked={from === 'start'} onChange={choose(setFrom)} label={r.fromStart} hint={r.fromStartHint} />
          {canFromFailed ? (
            <Choice name="from" value="failed_step" checked={from === 'failed_step'} onChange={choose(setFrom)} label={r.fromFailed} hint={r.fromFailedHint} />
          ) : null}
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-semibold">{r.version}</legend>
          <Choice name="version" value="published" checked={version === 'published'} onChange={choose(setVersion)} label={r.published} />
          <Choice name="version" value="original" checked={version === 'original'} onChange={choose(setVersion)} label={r.original} />
        </fieldset>
        <div className="space-y-2">
          <Button loading={preview.isPending} onClick={() => preview.mutate({ id: execution.id, from, version, dryRun: true })}>
            {preview.isPending ? r.previewing : r.preview}
          </Button>
          {effects ? (
            <div className="rounded-md border border-line p-3" data-testid="replay-effects">
              <p className="mb-1.5 text-sm font-medium">{r.effectsTitle}</p>
              {effects.length === 0 ? (
                <p className="text-sm text-muted">{r.noEffects}</p>
              ) : (
                <ul className="space-y-1">
                  {effects.map((effect, index) => (
                    <li key={index} className="text-sm" data-testid="replay-effect">
                      <span className="font-medium">{effect.nodeName || effect.nodeId}</span>{' '}
                      <code className="rounded bg-subtle px-1 font-mono text-xs">{effect.kind}</code>{' '}
                      <span className="text-muted">{effect.description}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ) : null}
        </div>
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button disabled={replay.isPending}>{t.common.cancel}</Button>
        </DialogClose>
        <Button type="submit" variant="primary" loading={replay.isPending}>
          {replay.isPending ? r.submitting : r.submit}
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}

export function ReplayDialog({ execution, open, onOpenChange }: { execution: ExecutionDetail; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t.executions.replayDialog.title} description={t.executions.replayDialog.description}>
        {open ? <ReplayForm execution={execution} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
