'use client';

/**
 * The webhook: get (or create) its URL, copy it, rotate it, and require a signature. The token is the
 * same on every call until rotated, so asking again never breaks a live sender; a new signing secret
 * is shown once.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { CopyField } from '@/app/ui/copy-field';
import { ConfirmDialog } from '@/app/ui/dialog';
import { CheckboxField } from '@/app/ui/field';
import { LinkIcon, RefreshIcon } from '@/app/ui/icons';
import { SectionHeader } from '@/app/ui/page-header';
import { useWorkflowMutations, useWorkflowsCache, type WebhookAnswer, type WorkflowDetail } from '../_lib/api';

export function WebhookPanel({ workflow }: { workflow: WorkflowDetail }) {
  const { t } = useI18n();
  const cache = useWorkflowsCache();
  const mutations = useWorkflowMutations();
  const [answer, setAnswer] = useState<WebhookAnswer | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [rotateOpen, setRotateOpen] = useState(false);

  const webhook = useMutation({
    ...mutations.webhook,
    onSuccess: async (next) => {
      setAnswer(next);
      // The secret comes only with the call that creates it; keep it on screen until the page is left.
      if (next.secret) setSecret(next.secret);
      else if (!next.requireSignature) setSecret(null);
      setRotateOpen(false);
      await cache.refresh();
    },
  });
  const requireSignature = answer?.requireSignature ?? workflow.webhook.requireSignature;
  const readOnly = workflow.status === 'archived';

  return (
    <Card className="max-w-3xl space-y-4 p-5">
      <SectionHeader title={t.workflows.webhook.title} description={t.workflows.webhook.description} />
      {workflow.triggerType !== 'webhook' ? (
        <Alert tone="info" testId="webhook-not-webhook">
          {t.workflows.webhook.notWebhook}
        </Alert>
      ) : null}
      {webhook.isError ? (
        <Alert tone="danger" testId="webhook-error">
          {describeError(webhook.error, t)}
        </Alert>
      ) : null}
      {answer ? (
        <CopyField value={answer.url} label={t.workflows.webhook.url} testId="webhook-url" />
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="primary" loading={webhook.isPending} disabled={readOnly} onClick={() => webhook.mutate({ id: workflow.id })}>
            <LinkIcon />
            {webhook.isPending ? t.workflows.webhook.showing : t.workflows.webhook.show}
          </Button>
          {!workflow.webhook.configured ? <span className="text-sm text-muted">{t.workflows.webhook.notConfigured}</span> : null}
        </div>
      )}
      <CheckboxField
        label={t.workflows.webhook.requireSignature}
        hint={t.workflows.webhook.requireSignatureHint}
        checked={requireSignature}
        disabled={readOnly || webhook.isPending}
        onChange={(event) => webhook.mutate({ id: workflow.id, requireSignature: event.target.checked })}
      />
      {secret ? (
        <div className="space-y-2">
          <Alert tone="warning" testId="webhook-secret-warning">
            {t.workflows.webhook.secretWarning}
          </Alert>
          <CopyField value={secret} label={t.workflows.webhook.secret} testId="webhook-secret" />
        </div>
      ) : null}
      {answer && !readOnly ? (
        <Button variant="dangerGhost" onClick={() => setRotateOpen(true)}>
          <RefreshIcon />
          {t.workflows.webhook.rotate}
        </Button>
      ) : null}
      <ConfirmDialog
        open={rotateOpen}
        onOpenChange={setRotateOpen}
        title={t.workflows.webhook.rotateConfirm.title}
        description={t.workflows.webhook.rotateConfirm.body}
        confirmLabel={t.workflows.webhook.rotateConfirm.confirm}
        pending={webhook.isPending}
        onConfirm={() => webhook.mutate({ id: workflow.id, rotate: true })}
      />
    </Card>
  );
}
