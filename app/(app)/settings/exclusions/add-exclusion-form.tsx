'use client';

/** The add form of one exclusion list: kind, value (with the stored form previewed), optional note. */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { appErrorOf, describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { SelectField, TextField } from '@/app/ui/field';
import { PlusIcon } from '@/app/ui/icons';
import { checkDraft, fieldErrorOf, noteMaxLength, storedPreview, valueMaxLength, type DraftErrors, type ExclusionKind } from './exclusion-draft';
import { useExclusionActions, type ExclusionScope } from './_lib/api';

function issuePathsOf(error: unknown): string[] {
  const issues = appErrorOf(error)?.details.issues;
  return Array.isArray(issues) ? issues.map((issue: { path?: unknown }) => (typeof issue.path === 'string' ? issue.path : '')).filter(Boolean) : [];
}

export function AddExclusionForm({ scope }: { scope: ExclusionScope }) {
  const { t } = useI18n();
  const x = t.exclusions;
  const { create } = useExclusionActions(scope);
  const [kind, setKind] = useState<ExclusionKind>('domain');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<DraftErrors>({});
  const [generalError, setGeneralError] = useState<unknown>(null);
  const [added, setAdded] = useState<string | null>(null);
  const preview = storedPreview(kind, value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    setGeneralError(null);
    const checked = checkDraft({ kind, value, note }, x.messages);
    if ('errors' in checked) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    create.mutate(checked.data, {
      onSuccess: (result) => {
        setValue('');
        setNote('');
        setAdded(result.exclusion.value);
      },
      onError: (error) => {
        const inline = fieldErrorOf(appErrorOf(error)?.code ?? null, kind, x.messages, issuePathsOf(error));
        if (inline) setErrors(inline);
        else setGeneralError(error);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={x.form.title} className="mt-4 rounded-lg border border-line bg-surface p-4 shadow-xs" data-testid={`exclusion-form-${scope}`}>
      <h3 className="mb-3 text-sm font-semibold">{x.form.title}</h3>
      <div className="grid gap-4 sm:grid-cols-[10rem_minmax(0,1fr)_minmax(0,1fr)]">
        <SelectField
          label={x.form.kind}
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as ExclusionKind);
            setErrors({});
          }}
        >
          <option value="domain">{x.kinds.domain}</option>
          <option value="address">{x.kinds.address}</option>
        </SelectField>
        <TextField
          label={x.form.value}
          value={value}
          maxLength={valueMaxLength}
          autoComplete="off"
          spellCheck={false}
          placeholder={x.form.valuePlaceholder[kind]}
          hint={preview ? x.form.preview(preview) : x.form.valueHint[kind]}
          error={errors.value}
          onChange={(event) => {
            setValue(event.target.value);
            if (errors.value) setErrors({ ...errors, value: undefined });
          }}
        />
        <TextField
          label={x.form.note}
          optional={t.common.optional}
          value={note}
          maxLength={noteMaxLength}
          placeholder={x.form.notePlaceholder}
          error={errors.note}
          onChange={(event) => {
            setNote(event.target.value);
            if (errors.note) setErrors({ ...errors, note: undefined });
          }}
        />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" loading={create.isPending}>
          <PlusIcon />
          {create.isPending ? x.form.submitting : x.form.submit}
        </Button>
        {added ? (
          <p role="status" className="text-sm text-muted">
            {x.form.added(added)}
          </p>
        ) : null}
      </div>
      {generalError ? (
        <Alert tone="danger" testId={`exclusion-add-error-${scope}`} className="mt-4">
          {describeError(generalError, t)}
        </Alert>
      ) : null}
    </form>
  );
}
