'use client';

/**
 * Connect (or reconnect) an IMAP/SMTP mailbox. The service probes both servers before storing
 * anything; a refusal (`imap.*`, `smtp.*`) is shown inside the block of the server that refused.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { CheckboxField, TextField } from '@/app/ui/field';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { defaultPorts, ServerFields, type ServerFieldErrors, type ServerSettings } from './server-fields';
import { useMailboxActions } from './_lib/api';

interface Errors {
  address?: string;
  password?: string;
  imap: ServerFieldErrors;
  smtp: ServerFieldErrors;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function portError(port: string, message: string): string | undefined {
  const n = Number(port);
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? undefined : message;
}

function ConnectForm({ initialAddress, onDone }: { initialAddress: string; onDone: (result: { address: string; created: boolean }) => void }) {
  const { t } = useI18n();
  const f = t.mailboxes.connect;
  const { connectImap } = useMailboxActions();
  const [address, setAddress] = useState(initialAddress);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [imap, setImap] = useState<ServerSettings>({ host: '', port: defaultPorts.imap.secure, secure: true });
  const [smtp, setSmtp] = useState<ServerSettings>({ host: '', port: defaultPorts.smtp.secure, secure: true });
  const [allowInvalid, setAllowInvalid] = useState(false);
  const [errors, setErrors] = useState<Errors>({ imap: {}, smtp: {} });

  const domain = address.includes('@') ? address.split('@').pop() || 'example.com' : 'example.com';
  const code = errorCodeOf(connectImap.error);
  const failedServer = code?.startsWith('imap.') ? 'imap' : code?.startsWith('smtp.') ? 'smtp' : null;
  const probeText = connectImap.error ? describeError(connectImap.error, t) : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {
      address: emailPattern.test(address.trim()) ? undefined : f.addressInvalid,
      password: password ? undefined : f.passwordRequired,
      imap: { host: imap.host.trim() ? undefined : f.hostRequired, port: portError(imap.port, f.portInvalid) },
      smtp: { host: smtp.host.trim() ? undefined : f.hostRequired, port: portError(smtp.port, f.portInvalid) },
    };
    setErrors(found);
    const invalid = found.address || found.password || Object.values(found.imap).some(Boolean) || Object.values(found.smtp).some(Boolean);
    if (invalid) return;
    connectImap.mutate(
      {
        address: address.trim(),
        imapHost: imap.host.trim(),
        imapPort: Number(imap.port),
        imapSecure: imap.secure,
        smtpHost: smtp.host.trim(),
        smtpPort: Number(smtp.port),
        smtpSecure: smtp.secure,
        ...(username.trim() ? { username: username.trim() } : {}),
        password,
        allowInvalidCertificate: allowInvalid,
      },
      { onSuccess: (data) => onDone({ address: data.address, created: data.created }) },
    );
  }

  return (
    <DialogForm onSubmit={submit} aria-busy={connectImap.isPending || undefined}>
      <DialogBody className="space-y-4">
        {connectImap.isError && !failedServer ? (
          <Alert tone="danger" testId="connect-imap-error">
            {probeText}
          </Alert>
        ) : null}
        <TextField
          label={f.address}
          type="email"
          autoComplete="email"
          autoFocus={!initialAddress}
          value={address}
          error={errors.address}
          onChange={(event) => setAddress(event.target.value)}
        />
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label={f.username}
            optional={t.common.optional}
            hint={f.usernameHint}
            autoComplete="username"
            maxLength={255}
            value={username}
            onChange={(event) => setUsername(event.target.value)}
          />
          <TextField
            label={f.password}
            type="password"
            autoComplete="current-password"
            autoFocus={Boolean(initialAddress)}
            maxLength={1024}
            value={password}
            error={errors.password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <ServerFields
          kind="imap"
          value={imap}
          onChange={setImap}
          errors={errors.imap}
          probeError={failedServer === 'imap' ? probeText : null}
          hostPlaceholder={`imap.${domain}`}
        />
        <ServerFields
          kind="smtp"
          value={smtp}
          onChange={setSmtp}
          errors={errors.smtp}
          probeError={failedServer === 'smtp' ? probeText : null}
          hostPlaceholder={`smtp.${domain}`}
        />
        <CheckboxField label={f.allowInvalid} hint={f.allowInvalidHint} checked={allowInvalid} onChange={(event) => setAllowInvalid(event.target.checked)} />
        {connectImap.isPending ? (
          <p role="status" className="text-sm text-muted">
            {f.probing}
          </p>
        ) : null}
      </DialogBody>
      <FormDialogFooter pending={connectImap.isPending} submitLabel={f.submit} pendingLabel={f.submitting} />
    </DialogForm>
  );
}

export function ConnectImapDialog({
  open,
  initialAddress = '',
  onOpenChange,
  onConnected,
}: {
  open: boolean;
  initialAddress?: string;
  onOpenChange: (open: boolean) => void;
  onConnected: (result: { address: string; created: boolean }) => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={initialAddress ? t.mailboxes.connect.reconnectTitle(initialAddress) : t.mailboxes.connect.title} description={t.mailboxes.connect.description} size="lg">
        {open ? (
          <ConnectForm
            initialAddress={initialAddress}
            onDone={(result) => {
              onOpenChange(false);
              onConnected(result);
            }}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
