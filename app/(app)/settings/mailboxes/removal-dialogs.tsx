'use client';

/**
 * Disconnect and delete a mailbox. Both show what the removal affects first (messages mirrored, runs
 * still waiting, linked workflows), then the outcome (workflows disarmed, what happened to the secret).
 */
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { Mailbox, RemovalImpact } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { ConfirmDialog } from '@/app/ui/dialog';
import { Spinner } from '@/app/ui/spinner';
import { ErrorState } from '@/app/ui/states';
import { useMailboxActions, useRemovalImpact } from './_lib/api';

function ImpactSummary({ impact, mode }: { impact: RemovalImpact; mode: 'disconnect' | 'delete' }) {
  const { t } = useI18n();
  const i = t.mailboxes.impact;
  return (
    <div className="space-y-2 rounded-lg border border-line bg-subtle/50 p-3 text-sm" data-testid="removal-impact">
      <p>{mode === 'disconnect' ? i.messagesKept(impact.messages) : i.messagesDeleted(impact.messages)}</p>
      <p>{i.pendingExecutions(impact.pendingExecutions)}</p>
      {impact.workflows.length > 0 ? (
        <div>
          <p>{i.workflows(impact.workflows.length)}</p>
          <ul className="mt-1.5 space-y-1">
            {impact.workflows.map((workflow) => (
              <li key={`${workflow.id}:${workflow.link}`} className="flex items-center gap-2">
                <span className="truncate font-medium">{workflow.name}</span>
                <Badge tone="neutral">{i.links[workflow.link]}</Badge>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-muted">{i.noWorkflows}</p>
      )}
    </div>
  );
}

function Impact({ mailbox, mode }: { mailbox: Mailbox; mode: 'disconnect' | 'delete' }) {
  const { t } = useI18n();
  const impact = useRemovalImpact(mailbox.id);
  if (impact.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted">
        <Spinner />
        {t.mailboxes.impact.loading}
      </p>
    );
  }
  if (impact.isError) return <ErrorState error={impact.error} onRetry={() => impact.refetch()} testId="removal-impact-error" />;
  return <ImpactSummary impact={impact.data} mode={mode} />;
}

export function RemovalDialog({ mode, mailbox, onClose }: { mode: 'disconnect' | 'delete'; mailbox: Mailbox | null; onClose: () => void }) {
  const { t } = useI18n();
  const m = t.mailboxes;
  const { disconnect, remove } = useMailboxActions();
  const mutation = mode === 'disconnect' ? disconnect : remove;
  const texts = mode === 'disconnect' ? m.disconnect : m.remove;
  // Same query as <Impact>: the confirm button waits until the impact was shown.
  const impact = useRemovalImpact(mailbox?.id ?? null);

  let result: React.ReactNode = null;
  if (mode === 'disconnect' && disconnect.data) {
    result = (
      <div className="space-y-1.5" data-testid="disconnect-result">
        <p>{m.disconnect.done(disconnect.data.address)}</p>
        <p className="text-muted">{m.disconnect.disarmed(disconnect.data.disarmedWorkflows)}</p>
        <p className="text-muted">{m.credentialOutcome[disconnect.data.credential]}</p>
      </div>
    );
  } else if (mode === 'delete' && remove.data) {
    result = (
      <div className="space-y-1.5" data-testid="delete-result">
        <p>{m.remove.done(remove.data.address)}</p>
        <p className="text-muted">{m.remove.deletedMessages(remove.data.deletedMessages)}</p>
        <p className="text-muted">{m.credentialOutcome[remove.data.credential]}</p>
      </div>
    );
  }

  return (
    <ConfirmDialog
      open={mailbox !== null}
      onOpenChange={(open) => {
        if (!open) {
          mutation.reset();
          onClose();
        }
      }}
      title={mailbox ? texts.title(mailbox.address) : ''}
      description={texts.body}
      confirmLabel={mutation.isPending ? texts.pending : texts.confirm}
      pending={mutation.isPending}
      confirmDisabled={impact.isPending}
      result={result}
      error={
        mutation.isError ? (
          <Alert tone="danger" testId={`${mode}-error`}>
            {describeError(mutation.error, t)}
          </Alert>
        ) : null
      }
      onConfirm={() => mailbox && mutation.mutate({ id: mailbox.id })}
    >
      {mailbox && !result ? <Impact mailbox={mailbox} mode={mode} /> : null}
    </ConfirmDialog>
  );
}
