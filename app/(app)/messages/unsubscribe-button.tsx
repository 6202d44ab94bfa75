'use client';

/**
 * "Unsubscribe" in a list mail's header. With RFC 8058 one-click, it asks once, then the service
 * POSTs the request to the list (POST /api/v1/messages/{id}/unsubscribe) and the button says it is
 * done; with only a `mailto:`, it opens a new message prepared as the list asks (the member sends it).
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { FullMessage, MailPrefill } from '@/app/lib/mail-types';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { useUnsubscribe } from './_lib/api';

export function UnsubscribeButton({ message, onWrite }: { message: FullMessage; onWrite?: (prefill: MailPrefill) => void }) {
  const { t } = useI18n();
  const u = t.webmail.unsubscribe;
  const [confirming, setConfirming] = useState(false);
  const unsubscribe = useUnsubscribe(() => setConfirming(false));
  const offer = message.listUnsubscribe;
  if (!offer || (!offer.oneClick && !(offer.mailto && onWrite))) return null;

  if (unsubscribe.isSuccess) {
    return (
      <span role="status" className="text-xs text-muted" data-testid="unsubscribed">
        {u.done(unsubscribe.data.host)}
      </span>
    );
  }
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        data-testid="unsubscribe"
        onClick={() => (offer.oneClick ? setConfirming(true) : offer.mailto && onWrite?.(offer.mailto))}
      >
        {offer.oneClick ? u.action : u.byMail}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={u.title}
        description={u.body(message.from?.name?.trim() || message.from?.email || '')}
        confirmLabel={u.action}
        tone="primary"
        pending={unsubscribe.isPending}
        error={unsubscribe.isError ? describeError(unsubscribe.error, t) : undefined}
        onConfirm={() => unsubscribe.mutate({ id: message.id })}
      />
    </>
  );
}
