'use client';

/** Settings → Mailboxes: the member's mailboxes, connecting new ones (IMAP/SMTP form or OAuth). */
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { callbackNotice, type Notice } from '@/app/lib/oauth-callback';
import { oauthProviders, type Mailbox, type MailboxProvider, type OAuthProvider } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { InboxIcon, PlusIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { ConnectImapDialog } from './connect-imap-dialog';
import { DateActionDialog } from './date-dialogs';
import { MailboxCard, type MailboxDialog } from './mailbox-card';
import { RemovalDialog } from './removal-dialogs';
import { useMailboxes, useOAuthStart } from './_lib/api';

const oauthOf: Partial<Record<MailboxProvider, OAuthProvider>> = { mail_provider_a: 'oauth_provider_a', mail_provider_b: 'oauth_provider_b' };

/** `start` is owned by the page: its refusal is about that attempt and is cleared once a mailbox connects. */
function OAuthButtons({ start }: { start: ReturnType<typeof useOAuthStart> }) {
  const { t } = useI18n();
  return (
    <>
      {oauthProviders.map((provider) => (
        <Button
          key={provider}
          loading={start.isPending && start.variables?.provider === provider}
          disabled={start.isPending}
          onClick={() => start.mutate({ provider, capability: 'mail' })}
        >
          {t.mailboxes.oauthConnect[provider]}
        </Button>
      ))}
      {start.isError ? (
        <Alert tone="danger" testId="oauth-start-error" className="basis-full">
          {describeError(start.error, t)}
        </Alert>
      ) : null}
    </>
  );
}

export function MailboxesView() {
  const { t } = useI18n();
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const mailboxes = useMailboxes();
  const startOAuth = useOAuthStart();
  const reconnectOAuth = useOAuthStart();
  const [connectOpen, setConnectOpen] = useState(false);
  const [reconnectAddress, setReconnectAddress] = useState('');
  const [dialog, setDialog] = useState<{ kind: Exclude<MailboxDialog, 'reconnect'>; mailbox: Mailbox } | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const shownNotice = notice ?? callbackNotice(params, t, t.mailboxes.notices.oauthConnected);

  function open(kind: MailboxDialog, mailbox: Mailbox) {
    if (kind !== 'reconnect') return setDialog({ kind, mailbox });
    const provider = oauthOf[mailbox.provider];
    if (provider) return reconnectOAuth.mutate({ provider, capability: 'mail' });
    setReconnectAddress(mailbox.address);
    setConnectOpen(true);
  }

  function dismissNotice() {
    setNotice(null);
    if (params.has('connected') || params.has('error')) router.replace(pathname);
  }

  const connectButton = (
    <Button
      variant="primary"
      onClick={() => {
        setReconnectAddress('');
        setConnectOpen(true);
      }}
    >
      <PlusIcon />
      {t.mailboxes.connectImap}
    </Button>
  );

  return (
    <>
      <PageHeader title={t.mailboxes.title} description={t.mailboxes.description} actions={connectButton} />
      <div className="mb-6 flex flex-wrap items-center gap-2">
        <span className="text-sm text-muted">{t.mailboxes.oauthIntro}</span>
        <OAuthButtons start={startOAuth} />
      </div>
      {shownNotice ? (
        <Alert
          tone={shownNotice.tone}
          testId="mailboxes-notice"
          className="mb-6"
          action={
            <Button size="sm" variant="ghost" onClick={dismissNotice}>
              {t.common.close}
            </Button>
          }
        >
          {shownNotice.text}
        </Alert>
      ) : null}
      {reconnectOAuth.isError ? (
        <Alert tone="danger" testId="oauth-reconnect-error" className="mb-6">
          {describeError(reconnectOAuth.error, t)}
        </Alert>
      ) : null}
      {mailboxes.isPending ? (
        <LoadingState rows={3} />
      ) : mailboxes.isError ? (
        <ErrorState error={mailboxes.error} onRetry={() => mailboxes.refetch()} testId="mailboxes-error" />
      ) : mailboxes.data.length === 0 ? (
        <EmptyState icon={<InboxIcon size={18} />} title={t.mailboxes.empty.title} body={t.mailboxes.empty.body} action={connectButton} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          {mailboxes.data.map((mailbox) => (
            <MailboxCard key={mailbox.id} mailbox={mailbox} onOpen={open} />
          ))}
        </div>
      )}

      <ConnectImapDialog
        open={connectOpen}
        initialAddress={reconnectAddress}
        onOpenChange={setConnectOpen}
        onConnected={({ address, created }) => {
          // An earlier OAuth refusal ("an administrator must register…") no longer applies: a mailbox is connected.
          startOAuth.reset();
          reconnectOAuth.reset();
          setNotice({ tone: 'success', text: created ? t.mailboxes.notices.connected(address) : t.mailboxes.notices.updated(address) });
        }}
      />
      <DateActionDialog
        kind={dialog?.kind === 'backfill' ? 'backfill' : 'resync'}
        mailbox={dialog && (dialog.kind === 'resync' || dialog.kind === 'backfill') ? dialog.mailbox : null}
        onClose={() => setDialog(null)}
        onDone={(kind, mailbox, enqueued) => {
          setDialog(null);
          const n = t.mailboxes.notices;
          setNotice({ tone: 'info', text: kind === 'resync' ? n.resync(mailbox.address, enqueued) : n.backfill(mailbox.address, enqueued) });
        }}
      />
      <RemovalDialog
        mode={dialog?.kind === 'delete' ? 'delete' : 'disconnect'}
        mailbox={dialog && (dialog.kind === 'disconnect' || dialog.kind === 'delete') ? dialog.mailbox : null}
        onClose={() => setDialog(null)}
      />
    </>
  );
}
