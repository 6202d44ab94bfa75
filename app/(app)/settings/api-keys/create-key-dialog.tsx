'use client';

import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { CopyField } from '@/app/ui/copy-field';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { useCreateApiKey, type CreatedKey } from './_lib/api';
import { emptyLevels, ScopePicker, scopesOf } from './scope-picker';

type Created = CreatedKey;

interface Errors {
  name?: string;
  scopes?: string;
  expiry?: string;
}

const nameMax = 120;
const expiryBounds = { min: 1, max: 730 };

function parseExpiry(text: string): number | null | 'invalid' {
  if (!text.trim()) return null;
  const days = Number(text);
  return Number.isInteger(days) && days >= expiryBounds.min && days <= expiryBounds.max ? days : 'invalid';
}

function CreateKeyForm({ onCreated }: { onCreated: (created: Created) => void }) {
  const { t } = useI18n();
  const [name, setName] = useState('');
  const [levels, setLevels] = useState(emptyLevels);
  const [expiry, setExpiry] = useState('');
  const { errors, setErrors, clearError } = useFieldErrors<Errors>({});

  const create = useCreateApiKey(onCreated);

  function submit(event: FormEvent) {
    event.preventDefault();
    const scopes = scopesOf(levels);
    const days = parseExpiry(expiry);
    const found: Errors = {
      name: name.trim() ? undefined : t.apiKeys.createDialog.nameRequired,
      scopes: scopes.length > 0 ? undefined : t.apiKeys.createDialog.permissionsRequired,
      expiry: days === 'invalid' ? t.apiKeys.createDialog.expiryInvalid : undefined,
    };
    setErrors(found);
    if (found.name || found.scopes || found.expiry || days === 'invalid') return;
    create.mutate({ name: name.trim(), scopes, ...(days ? { expiresInDays: days } : {}) });
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-5">
        {create.isError ? (
          <Alert tone="danger" testId="create-key-error">
            {describeError(create.error, t)}
          </Alert>
        ) : null}
        <div className="grid items-start gap-4 sm:grid-cols-[3fr_2fr]">
          <TextField
            label={t.apiKeys.createDialog.name}
            name="name"
            autoFocus
            autoComplete="off"
            maxLength={nameMax}
            placeholder={t.apiKeys.createDialog.namePlaceholder}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              clearError('name');
            }}
            error={errors.name}
          />
          <TextField
            label={t.apiKeys.createDialog.expiry}
            optional={t.common.optional}
            name="expiresInDays"
            type="number"
            inputMode="numeric"
            min={expiryBounds.min}
            max={expiryBounds.max}
            step={1}
            value={expiry}
            onChange={(event) => {
              setExpiry(event.target.value);
              clearError('expiry');
            }}
            hint={t.apiKeys.createDialog.expiryHint}
            error={errors.expiry}
          />
        </div>
        <ScopePicker
          levels={levels}
          onChange={(next) => {
            setLevels(next);
            clearError('scopes');
          }}
          error={errors.scopes}
          disabled={create.isPending}
        />
      </DialogBody>
      <FormDialogFooter pending={create.isPending} submitLabel={t.apiKeys.createDialog.submit} pendingLabel={t.apiKeys.createDialog.submitting} />
    </DialogForm>
  );
}

function SecretView({ created }: { created: Created }) {
  const { t } = useI18n();
  return (
    <>
      <DialogBody className="space-y-4">
        <p className="text-sm text-muted">{t.apiKeys.secret.description(created.key.name)}</p>
        <Alert tone="warning" testId="api-key-secret-warning" live="status">
          {t.apiKeys.secret.warning}
        </Alert>
        <CopyField value={created.secret} label={t.apiKeys.secret.label} testId="api-key-secret" />
      </DialogBody>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="primary">{t.apiKeys.secret.done}</Button>
        </DialogClose>
      </DialogFooter>
    </>
  );
}

export function CreateKeyDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  const [created, setCreated] = useState<Created | null>(null);

  function change(next: boolean) {
    onOpenChange(next);
    // The secret must not reappear: forget it as soon as the dialog closes.
    if (!next) setCreated(null);
  }

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent
        size={created ? 'md' : 'xl'}
        title={created ? t.apiKeys.secret.title : t.apiKeys.createDialog.title}
        description={created ? undefined : t.apiKeys.createDialog.description}
        // A stray click outside must not throw away a secret that is shown only once.
        onInteractOutside={created ? (event) => event.preventDefault() : undefined}
      >
        {open ? created ? <SecretView created={created} /> : <CreateKeyForm onCreated={setCreated} /> : null}
      </DialogContent>
    </Dialog>
  );
}
