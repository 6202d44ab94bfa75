'use client';

/**
 * The editor of one defaults layer: the organisation's (Admin → Writing defaults), the member's
 * (Settings → Signatures) or a mailbox's (its writing defaults on the Mailboxes page). Formality, tone,
 * language and notes; the member's and a mailbox's also name a signature (a mailbox's is its default
 * signature). Saving sends every field (the route replaces the row).
 */
import type { FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { SelectField, TextareaField } from '@/app/ui/field';
import { ErrorState, LoadingState } from '@/app/ui/states';
import type { Formality, Tone } from '@/server/domains/contacts/resolve';
import { contactBounds } from '@/server/domains/contacts/schemas';
import { useContactDefaults, useDefaultsActions, useSignatures, type ContactDefaults } from '../_lib/api';
import { FormalityField, LanguageField, ToneField, useWritingDraft } from './writing-fields';

export type DefaultsScope = { scope: 'organisation' } | { scope: 'member' } | { scope: 'mailbox'; mailboxId: string };

interface Draft {
  formality: Formality | '';
  tone: Tone | '';
  language: string;
  notes: string;
  signatureId: string;
}

type Row = ContactDefaults['member'] | ContactDefaults['organisation'];

function draftOf(row: Row | null): Draft {
  return {
    formality: row?.formality ?? '',
    tone: row?.tone ?? '',
    language: row?.language ?? '',
    notes: row?.notes ?? '',
    signatureId: row && 'signatureId' in row ? (row.signatureId ?? '') : '',
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

function rowOf(data: ContactDefaults, which: DefaultsScope): Row | null {
  if (which.scope === 'organisation') return data.organisation;
  if (which.scope === 'member') return data.member;
  return data.mailbox;
}

function DefaultsFields({ which, row, testId }: { which: DefaultsScope; row: Row | null; testId: string }) {
  const { t, locale } = useI18n();
  const c = t.contacts;
  const d = c.defaults;
  const actions = useDefaultsActions();
  const withSignature = which.scope !== 'organisation';
  const signatures = useSignatures(withSignature);
  const { draft, change, saved, markSaved, languageError, changeLanguage, languageAccepted } = useWritingDraft<Draft>(() => draftOf(row));
  const mutation = which.scope === 'organisation' ? actions.organisation : which.scope === 'member' ? actions.member : actions.mailbox;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!languageAccepted()) return;
    const common = { formality: draft.formality || null, tone: draft.tone || null, language: orNull(draft.language), notes: orNull(draft.notes) };
    const signatureId = draft.signatureId || null;
    const onSuccess = markSaved;
    if (which.scope === 'organisation') actions.organisation.mutate(common, { onSuccess });
    else if (which.scope === 'member') actions.member.mutate({ ...common, signatureId }, { onSuccess });
    else actions.mailbox.mutate({ ...common, signatureId, mailboxId: which.mailboxId }, { onSuccess });
  };

  return (
    <form onSubmit={submit} noValidate data-testid={testId}>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormalityField label={d.formality} value={draft.formality} onChange={(formality) => change({ formality })} />
        <ToneField label={d.tone} value={draft.tone} onChange={(tone) => change({ tone })} />
        <LanguageField
          label={d.language}
          value={draft.language}
          error={languageError}
          onChange={changeLanguage}
        />
        {withSignature ? (
          <SelectField label={d.signature} value={draft.signatureId} onChange={(event) => change({ signatureId: event.target.value })}>
            <option value="">{d.noSignature}</option>
            {(signatures.data ?? []).map((signature) => (
              <option key={signature.id} value={signature.id}>
                {signature.name}
              </option>
            ))}
          </SelectField>
        ) : null}
      </div>
      <div className="mt-4">
        <TextareaField label={d.notes} optional={t.common.optional} value={draft.notes} maxLength={contactBounds.notes} onChange={(event) => change({ notes: event.target.value })} />
      </div>
      {mutation.isError ? (
        <Alert tone="danger" testId={`${testId}-error`} className="mt-4">
          {describeError(mutation.error, t)}
        </Alert>
      ) : null}
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <Button type="submit" variant="primary" loading={mutation.isPending}>
          {mutation.isPending ? d.saving : d.save}
        </Button>
        <p role="status" className="text-sm text-muted">
          {saved ? d.saved : row?.updatedAt ? d.updated(formatDateTime(row.updatedAt, locale)) : d.neverSet}
        </p>
      </div>
    </form>
  );
}

export function DefaultsForm({ which, testId }: { which: DefaultsScope; testId: string }) {
  const defaults = useContactDefaults(which.scope === 'mailbox' ? which.mailboxId : undefined);
  if (defaults.isPending) return <LoadingState rows={2} />;
  if (defaults.isError) return <ErrorState error={defaults.error} onRetry={() => defaults.refetch()} testId={`${testId}-load-error`} />;
  const row = rowOf(defaults.data, which);
  return <DefaultsFields which={which} row={row} testId={testId} />;
}
