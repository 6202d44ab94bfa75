'use client';

/**
 * Create a connection (HTTP with one of four kinds, or another type with key/value pairs; the
 * organisation scope for administrators) or edit one (name; the secret only when replaced). An HTTP
 * connection names the hosts its secret may be sent to (required for the organisation's).
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import type { Connection } from '@/app/lib/mail-types';
import { Alert } from '@/app/ui/alert';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/app/ui/field';
import { hostsData } from './hosts-draft';
import { emptyHttpDraft, httpData, mapData, type FieldErrors, type HttpDraft, type Messages, type Pair } from './secret-draft';
import { HttpSecretFields, KeyValueFields } from './secret-fields';
import { useConnectionActions } from './_lib/api';

const typePattern = /^[a-z0-9][a-z0-9_.-]*$/;
const httpType = 'http_generic';

function ConnectionForm({ existing, isAdmin, onDone }: { existing: Connection | null; isAdmin: boolean; onDone: () => void }) {
  const { t } = useI18n();
  const c = t.connections.form;
  const { create, update } = useConnectionActions();
  const mutation = existing ? update : create;
  const [name, setName] = useState(existing?.name ?? '');
  const [http, setHttp] = useState(existing ? existing.type === httpType : true);
  const [type, setType] = useState(existing && existing.type !== httpType ? existing.type : '');
  const [scope, setScope] = useState<'member' | 'org'>(existing?.scope ?? 'member');
  const [replaceSecret, setReplaceSecret] = useState(!existing);
  const [draft, setDraft] = useState<HttpDraft>({ ...emptyHttpDraft, kind: existing?.kind ?? emptyHttpDraft.kind });
  const [pairs, setPairs] = useState<Pair[]>([{ id: 1, key: '', value: '' }]);
  const [hostsText, setHostsText] = useState(existing?.allowedHosts?.join('\n') ?? '');
  const [errors, setErrors] = useState<FieldErrors & { name?: string; type?: string; hosts?: string }>({});
  const messages: Messages = c.checks;

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    const trimmed = name.trim();
    if (!trimmed) found.name = c.checks.required;
    else if (trimmed.length > 80) found.name = c.checks.tooLong(80);
    if (!http && !existing && (!type || type.length > 64 || !typePattern.test(type))) found.type = c.typeInvalid;
    const orgScope = (existing ? existing.scope : scope) === 'org';
    let allowedHosts: string[] | undefined;
    if (http) {
      const hosts = hostsData(hostsText, orgScope, c.checks);
      if ('error' in hosts) found.hosts = hosts.error;
      else allowedHosts = hosts.hosts;
    }
    let data: unknown = undefined;
    if (replaceSecret) {
      const built = http ? httpData(draft, messages) : mapData(pairs, messages);
      if ('errors' in built) Object.assign(found, built.errors);
      else data = built.data;
    }
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    if (existing) {
      update.mutate({ id: existing.id, name: trimmed, ...(data ? { data: data as Record<string, string> } : {}), ...(allowedHosts ? { allowedHosts } : {}) }, { onSuccess: onDone });
    } else {
      create.mutate({ type: http ? httpType : type, name: trimmed, scope, data: data as Record<string, string>, ...(allowedHosts ? { allowedHosts } : {}) }, { onSuccess: onDone });
    }
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {mutation.isError ? (
          <Alert tone="danger" testId="connection-error">
            {describeError(mutation.error, t)}
          </Alert>
        ) : null}
        <TextField label={c.name} value={name} maxLength={80} autoFocus error={errors.name} onChange={(event) => setName(event.target.value)} />
        {existing ? (
          <p className="text-sm text-muted">
            {c.typeFixed(existing.type === httpType ? t.connections.httpType : existing.type)} · {t.connections.scopes[existing.scope]}
          </p>
        ) : (
          <div className="grid gap-3 sm:grid-cols-2">
            <SelectField label={c.type} value={http ? httpType : 'other'} onChange={(event) => setHttp(event.target.value === httpType)}>
              <option value={httpType}>{t.connections.httpType}</option>
              <option value="other">{c.otherType}</option>
            </SelectField>
            {http ? null : (
              <TextField label={c.typeName} value={type} maxLength={64} placeholder="my_service" hint={c.typeHint} error={errors.type} onChange={(event) => setType(event.target.value.toLowerCase())} />
            )}
            {isAdmin ? (
              <SelectField label={c.scope} value={scope} hint={scope === 'org' ? c.orgHint : undefined} onChange={(event) => setScope(event.target.value === 'org' ? 'org' : 'member')}>
                <option value="member">{t.connections.scopes.member}</option>
                <option value="org">{t.connections.scopes.org}</option>
              </SelectField>
            ) : null}
          </div>
        )}
        {http ? (
          <TextareaField
            label={c.allowedHosts}
            value={hostsText}
            rows={3}
            placeholder="api.example.com"
            optional={(existing ? existing.scope : scope) !== 'org' ? t.common.optional : undefined}
            hint={(existing ? existing.scope : scope) === 'org' ? c.allowedHostsHint : `${c.allowedHostsHint} ${c.allowedHostsMemberHint}`}
            error={errors.hosts}
            spellCheck={false}
            autoCapitalize="off"
            onChange={(event) => setHostsText(event.target.value)}
          />
        ) : null}
        {existing ? (
          <CheckboxField label={c.replaceSecret} hint={c.replaceSecretHint} checked={replaceSecret} onChange={(event) => setReplaceSecret(event.target.checked)} />
        ) : null}
        {replaceSecret ? (
          http ? (
            <HttpSecretFields draft={draft} onChange={setDraft} errors={errors} />
          ) : (
            <KeyValueFields pairs={pairs} onChange={setPairs} error={errors.pairs} />
          )
        ) : null}
        <p className="text-xs text-muted">{c.secretNote}</p>
      </DialogBody>
      <FormDialogFooter
        pending={mutation.isPending}
        submitLabel={existing ? c.save : c.create}
        pendingLabel={existing ? c.saving : c.creating}
      />
    </DialogForm>
  );
}

export function ConnectionDialog({
  open,
  existing,
  isAdmin,
  onOpenChange,
}: {
  open: boolean;
  existing: Connection | null;
  isAdmin: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={existing ? t.connections.form.editTitle(existing.name) : t.connections.form.createTitle} description={t.connections.form.description} size="lg">
        {open ? <ConnectionForm key={existing?.id ?? 'new'} existing={existing} isAdmin={isAdmin} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
