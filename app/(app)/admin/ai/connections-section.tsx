'use client';

/**
 * Admin → AI models → connections: the list (provider, label, default, key hint, base URL, enabled
 * models), the add/edit dialog (the key is never shown back: empty on edit keeps it) and deletion.
 * Server refusals land at their field (base URL with its reason, key, label).
 */
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge, StatusBadge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { CheckboxField, Input, Label, SelectField, TextField } from '@/app/ui/field';
import { SectionHeader } from '@/app/ui/page-header';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { Table, TBody, TD, TH, THead, TR } from '@/app/ui/table';
import { useAiConnections, useCreateAiConnection, useDeleteAiConnection, useMakeDefaultAiConnection, useUpdateAiConnection } from './_lib/api';

export const aiProviderList = ['ai_vendor_a', 'ai_vendor_b', 'ai_vendor_c', 'ai_vendor_d', 'ai_vendor_e', 'ai_local', 'ai_generic_compatible'] as const;
export type AiProviderName = (typeof aiProviderList)[number];
const keyless = new Set<string>(['ai_local', 'ai_generic_compatible']);

export interface AiConnectionRow {
  id: string;
  provider: AiProviderName;
  label: string;
  isDefault: boolean;
  hasApiKey: boolean;
  apiKeyHint: string | null;
  baseUrl: string | null;
  enabledModels: string[] | null;
}

type FieldErrors = { label?: string; apiKey?: string; baseUrl?: string; form?: string };

/** A list of model names typed one by one (Enter or comma adds, × removes). */
function TagInput({ label, hint, values, onChange }: { label: string; hint: string; values: string[]; onChange: (values: string[]) => void }) {
  const { t } = useI18n();
  const [draft, setDraft] = useState('');
  function commit() {
    const name = draft.trim().replace(/,$/, '').trim();
    if (name && !values.includes(name) && name.length <= 128 && values.length < 64) onChange([...values, name]);
    setDraft('');
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      commit();
    } else if (event.key === 'Backspace' && draft === '' && values.length > 0) onChange(values.slice(0, -1));
  }
  return (
    <div className="space-y-1.5">
      <Label htmlFor="ai-enabled-models">{label}</Label>
      <div className="flex flex-wrap gap-1" data-testid="ai-enabled-models">
        {values.map((value) => (
          <Badge key={value} tone="neutral" className="gap-1 font-mono text-[11px]">
            {value}
            <button type="button" aria-label={t.aiAdmin.connections.removeModel(value)} onClick={() => onChange(values.filter((v) => v !== value))}>
              ×
            </button>
          </Badge>
        ))}
      </div>
      <Input id="ai-enabled-models" data-testid="ai-enabled-models-input" value={draft} maxLength={130} onChange={(event) => setDraft(event.target.value)} onKeyDown={onKeyDown} onBlur={commit} />
      <p className="text-xs text-muted">{hint}</p>
    </div>
  );
}

function ConnectionDialog({ existing, onDone }: { existing: AiConnectionRow | null; onDone: () => void }) {
  const { t } = useI18n();
  const c = t.aiAdmin.connections;
  const create = useCreateAiConnection();
  const update = useUpdateAiConnection();
  const [provider, setProvider] = useState<AiProviderName>(existing?.provider ?? 'ai_vendor_a');
  const [label, setLabel] = useState(existing?.label ?? '');
  const [apiKey, setApiKey] = useState('');
  const [withoutKey, setWithoutKey] = useState(existing ? !existing.hasApiKey && keyless.has(existing.provider) : false);
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? '');
  const [models, setModels] = useState<string[]>(existing?.enabledModels ?? []);
  const [makeDefault, setMakeDefault] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const pending = create.isPending || update.isPending;
  const canGoKeyless = keyless.has(provider);

  function serverErrors(error: unknown): FieldErrors {
    const info = appErrorOf(error);
    if (info?.code === 'llm.invalid_base_url') {
      const reason = typeof info.details.reason === 'string' ? info.details.reason : '';
      return { baseUrl: c.baseUrlReasons[reason] ?? describeError(error, t) };
    }
    if (info?.code === 'llm.api_key_required') return { apiKey: info.details.reason === 'base_url_changed' ? c.keyRequiredBaseUrl : c.keyRequiredServer };
    if (info?.code === 'llm.connection_label_taken') return { label: c.labelTaken };
    return { form: describeError(error, t) };
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const useKeyless = canGoKeyless && withoutKey;
    const found: FieldErrors = {
      label: label.trim() ? undefined : c.labelRequired,
      apiKey: !existing && !useKeyless && !apiKey ? c.keyRequired : undefined,
      baseUrl: provider === 'ai_generic_compatible' && !baseUrl.trim() ? c.baseUrlReasons.required : undefined,
    };
    setErrors(found);
    if (found.label || found.apiKey || found.baseUrl) return;
    const options = { onSuccess: onDone, onError: (error: unknown) => setErrors(serverErrors(error)) };
    const common = {
      label: label.trim(),
      baseUrl: baseUrl.trim() ? baseUrl.trim() : null,
      enabledModels: models.length > 0 ? models : null,
      ...(useKeyless ? { withoutApiKey: true } : apiKey ? { apiKey } : {}),
    };
    if (existing) update.mutate({ id: existing.id, ...common, ...(!useKeyless && !apiKey && !existing.hasApiKey && canGoKeyless ? { withoutApiKey: false } : {}) }, options);
    else create.mutate({ provider, ...common, makeDefault }, options);
  }

  return (
    <DialogContent title={existing ? c.editTitle(existing.label) : c.addTitle} size="lg">
      <DialogForm onSubmit={submit} data-testid="ai-connection-form">
        <DialogBody className="space-y-4">
          {errors.form ? (
            <Alert tone="danger" testId="ai-connection-error">
              {errors.form}
            </Alert>
          ) : null}
          <SelectField label={c.provider} value={provider} disabled={existing !== null} data-testid="ai-connection-provider" onChange={(event) => setProvider(event.target.value as AiProviderName)}>
            {aiProviderList.map((name) => (
              <option key={name} value={name}>
                {t.aiAdmin.providers[name]}
              </option>
            ))}
          </SelectField>
          <TextField label={c.label} value={label} maxLength={80} error={errors.label} data-testid="ai-connection-label" onChange={(event) => setLabel(event.target.value)} />
          {canGoKeyless ? <CheckboxField label={c.withoutKey} checked={withoutKey} data-testid="ai-connection-without-key" onChange={(event) => setWithoutKey(event.target.checked)} /> : null}
          {canGoKeyless && withoutKey ? null : (
            <TextField
              label={c.apiKey}
              type="password"
              autoComplete="new-password"
              maxLength={512}
              value={apiKey}
              hint={existing?.hasApiKey ? c.apiKeyKeep(existing.apiKeyHint) : c.apiKeyHint}
              error={errors.apiKey}
              data-testid="ai-connection-key"
              onChange={(event) => setApiKey(event.target.value)}
            />
          )}
          <TextField
            label={c.baseUrl}
            type="url"
            maxLength={2048}
            value={baseUrl}
            optional={provider === 'ai_generic_compatible' ? undefined : t.common.optional}
            hint={provider === 'ai_generic_compatible' ? c.baseUrlRequired : c.baseUrlHint}
            error={errors.baseUrl}
            data-testid="ai-connection-base-url"
            onChange={(event) => setBaseUrl(event.target.value)}
          />
          <TagInput label={c.enabledModels} hint={c.enabledModelsHint} values={models} onChange={setModels} />
          {existing ? null : <CheckboxField label={c.makeDefaultOnCreate} checked={makeDefault} onChange={(event) => setMakeDefault(event.target.checked)} />}
        </DialogBody>
        <FormDialogFooter pending={pending} submitLabel={existing ? c.save : c.create} pendingLabel={existing ? c.saving : c.creating} />
      </DialogForm>
    </DialogContent>
  );
}

function DeleteConnection({ connection }: { connection: AiConnectionRow }) {
  const { t } = useI18n();
  const c = t.aiAdmin.connections;
  const remove = useDeleteAiConnection();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="sm" variant="dangerGhost" data-testid="ai-connection-delete" onClick={() => setOpen(true)}>
        {c.delete}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={c.deleteTitle(connection.label)}
        description={c.deleteBody}
        confirmLabel={c.delete}
        pending={remove.isPending}
        error={remove.isError ? <Alert tone="danger" testId="ai-connection-delete-error">{describeError(remove.error, t)}</Alert> : undefined}
        onConfirm={() => remove.mutate({ id: connection.id }, { onSuccess: () => setOpen(false) })}
      />
    </>
  );
}

export function ConnectionsSection() {
  const { t } = useI18n();
  const c = t.aiAdmin.connections;
  const list = useAiConnections();
  const makeDefault = useMakeDefaultAiConnection();
  const [dialog, setDialog] = useState<{ existing: AiConnectionRow | null } | null>(null);

  return (
    <section aria-labelledby="ai-connections">
      <SectionHeader
        id="ai-connections"
        title={c.title}
        description={c.description}
        actions={
          <Button variant="primary" data-testid="ai-connection-add" onClick={() => setDialog({ existing: null })}>
            {c.add}
          </Button>
        }
      />
      {makeDefault.isError ? <Alert tone="danger" testId="ai-connection-default-error">{describeError(makeDefault.error, t)}</Alert> : null}
      {list.isPending ? (
        <LoadingState rows={3} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.connections.length === 0 ? (
        <p className="rounded-lg border border-dashed border-line px-4 py-6 text-center text-sm text-muted" data-testid="ai-connections-empty">
          {c.empty}
        </p>
      ) : (
        <Table caption={c.title}>
          <THead>
            <TH>{c.label}</TH>
            <TH>{c.provider}</TH>
            <TH>{c.apiKey}</TH>
            <TH>{c.baseUrl}</TH>
            <TH>{c.enabledModels}</TH>
            <TH>
              <span className="sr-only">{c.edit}</span>
            </TH>
          </THead>
          <TBody>
            {list.data.connections.map((connection) => (
              <TR key={connection.id} data-testid="ai-connection-row" data-label={connection.label}>
                <TD>
                  <span className="font-medium">{connection.label}</span>{' '}
                  {connection.isDefault ? (
                    <span data-testid="ai-connection-default">
                      <StatusBadge tone="success">{c.default}</StatusBadge>
                    </span>
                  ) : null}
                </TD>
                <TD>{t.aiAdmin.providers[connection.provider]}</TD>
                <TD className="font-mono text-xs" data-testid="ai-connection-key-hint">
                  {connection.hasApiKey ? `••••${connection.apiKeyHint ?? ''}` : c.noKey}
                </TD>
                <TD className="font-mono text-xs break-all" data-testid="ai-connection-base-url-cell">
                  {connection.baseUrl ?? '—'}
                </TD>
                <TD className="text-xs">{connection.enabledModels ? connection.enabledModels.join(', ') : c.anyModel}</TD>
                <TD className="text-right whitespace-nowrap">
                  {connection.isDefault ? null : (
                    <Button size="sm" variant="ghost" data-testid="ai-connection-make-default" loading={makeDefault.isPending && makeDefault.variables.id === connection.id} onClick={() => makeDefault.mutate({ id: connection.id })}>
                      {c.makeDefault}
                    </Button>
                  )}
                  <Button size="sm" variant="ghost" data-testid="ai-connection-edit" onClick={() => setDialog({ existing: connection })}>
                    {c.edit}
                  </Button>
                  <DeleteConnection connection={connection} />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      <Dialog open={dialog !== null} onOpenChange={(open) => (open ? undefined : setDialog(null))}>
        {dialog ? <ConnectionDialog key={dialog.existing?.id ?? 'new'} existing={dialog.existing} onDone={() => setDialog(null)} /> : null}
      </Dialog>
    </section>
  );
}
