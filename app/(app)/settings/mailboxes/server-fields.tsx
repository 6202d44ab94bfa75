'use client';

/**
 * One server block of the IMAP/SMTP form (host, port, TLS) with the probe's refusal shown inside it.
 * Turning TLS on or off moves the port between the usual ports, unless the member typed another one.
 */
import { useI18n } from '@/app/i18n/client';
import { CheckboxField, TextField } from '@/app/ui/field';
import { AlertIcon } from '@/app/ui/icons';

export interface ServerSettings {
  host: string;
  port: string;
  secure: boolean;
}

export const defaultPorts = {
  imap: { secure: '993', plain: '143' },
  smtp: { secure: '465', plain: '587' },
} as const;

export function toggledSecure(settings: ServerSettings, kind: 'imap' | 'smtp', secure: boolean): ServerSettings {
  const ports = defaultPorts[kind];
  const wasDefault = settings.port === '' || settings.port === ports.secure || settings.port === ports.plain;
  return { ...settings, secure, port: wasDefault ? (secure ? ports.secure : ports.plain) : settings.port };
}

export interface ServerFieldErrors {
  host?: string;
  port?: string;
}

export function ServerFields({
  kind,
  value,
  onChange,
  errors,
  probeError,
  hostPlaceholder,
}: {
  kind: 'imap' | 'smtp';
  value: ServerSettings;
  onChange: (value: ServerSettings) => void;
  errors: ServerFieldErrors;
  /** The probe's refusal of this server (already in words). */
  probeError: string | null;
  hostPlaceholder: string;
}) {
  const { t } = useI18n();
  const f = t.mailboxes.connect;
  return (
    <fieldset
      className="space-y-3 rounded-lg border border-line p-4 aria-invalid:border-red-500/60"
      aria-invalid={probeError ? true : undefined}
      data-testid={`${kind}-block`}
    >
      <legend className="px-1 text-sm font-semibold">{kind === 'imap' ? f.imapTitle : f.smtpTitle}</legend>
      {probeError ? (
        <p role="alert" data-testid={`${kind}-probe-error`} className="flex items-start gap-2 text-sm font-medium text-red-700 dark:text-red-400">
          <AlertIcon className="mt-0.5 shrink-0" />
          {probeError}
        </p>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
        <TextField
          label={kind === 'imap' ? f.imapHost : f.smtpHost}
          value={value.host}
          placeholder={hostPlaceholder}
          autoComplete="off"
          spellCheck={false}
          maxLength={255}
          error={errors.host}
          onChange={(event) => onChange({ ...value, host: event.target.value })}
        />
        <TextField
          label={kind === 'imap' ? f.imapPort : f.smtpPort}
          value={value.port}
          inputMode="numeric"
          maxLength={5}
          error={errors.port}
          onChange={(event) => onChange({ ...value, port: event.target.value.replace(/\D/g, '') })}
        />
      </div>
      <CheckboxField
        label={kind === 'imap' ? f.imapSecure : f.smtpSecure}
        hint={value.secure ? f.secureHint : kind === 'imap' ? f.imapPlainHint : f.smtpPlainHint}
        checked={value.secure}
        onChange={(event) => onChange(toggledSecure(value, kind, event.target.checked))}
      />
    </fieldset>
  );
}
