'use client';

/**
 * The member's signatures (Settings → Signatures): the list, a dialog to create or edit one (name,
 * plain text, optional HTML, sanitised by the server when saved), and deletion after a confirmation
 * (cards, defaults and mailboxes naming it are left without one: the database clears the references).
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { formatDateTime } from '@/app/lib/format';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { ConfirmDialog, Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { TextareaField, TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { PencilIcon, PlusIcon, TrashIcon } from '@/app/ui/icons';
import { SectionHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { contactBounds } from '@/server/domains/contacts/schemas';
import { useSignatureActions, useSignatures, type Signature } from '../_lib/api';

/** The most signatures a member keeps (the server's `signaturesPerMember`, contacts/signatures.ts; a test keeps them equal). */
export const signatureLimit = 50;

function SignatureForm({ signature, onDone }: { signature: Signature | null; onDone: () => void }) {
  const { t } = useI18n();
  const s = t.contacts.signatures;
  const { create, update } = useSignatureActions();
  const mutation = signature ? update : create;
  const [name, setName] = useState(signature?.name ?? '');
  const [text, setText] = useState(signature?.text ?? '');
  const [html, setHtml] = useState(signature?.html ?? '');
  const { errors, setErrors, clearError } = useFieldErrors<{ name?: string }>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setErrors({ name: s.nameRequired });
      return;
    }
    const body = { name: name.trim(), text, html: html.trim() === '' ? null : html };
    if (signature) update.mutate({ id: signature.id, ...body }, { onSuccess: onDone });
    else create.mutate(body, { onSuccess: onDone });
  };

  return (
    <DialogForm onSubmit={submit} aria-label={signature ? s.editTitle(signature.name) : s.createTitle}>
      <DialogBody className="space-y-4">
        <TextField
          label={s.name}
          value={name}
          maxLength={contactBounds.signatureName}
          error={errors.name}
          onChange={(event) => {
            setName(event.target.value);
            clearError('name');
          }}
        />
        <TextareaField label={s.text} hint={s.textHint} value={text} maxLength={contactBounds.signatureText} rows={5} onChange={(event) => setText(event.target.value)} />
        <TextareaField
          label={s.html}
          optional={t.common.optional}
          hint={s.htmlHint}
          value={html}
          maxLength={contactBounds.signatureHtml}
          rows={5}
          spellCheck={false}
          className="font-mono text-[13px]"
          onChange={(event) => setHtml(event.target.value)}
        />
        {mutation.isError ? (
          <Alert tone="danger" testId="signature-save-error">
            {describeError(mutation.error, t)}
          </Alert>
        ) : null}
      </DialogBody>
      <FormDialogFooter pending={mutation.isPending} submitLabel={s.save} pendingLabel={s.saving} />
    </DialogForm>
  );
}

function DeleteSignatureDialog({ signature, onClose }: { signature: Signature | null; onClose: () => void }) {
  const { t } = useI18n();
  const s = t.contacts.signatures;
  const { remove } = useSignatureActions();
  return (
    <ConfirmDialog
      open={signature !== null}
      onOpenChange={(open) => {
        if (!open) {
          remove.reset();
          onClose();
        }
      }}
      title={signature ? s.deleteTitle(signature.name) : ''}
      description={s.deleteBody}
      confirmLabel={remove.isPending ? s.deleting : s.delete}
      pending={remove.isPending}
      error={remove.isError ? <Alert tone="danger" testId="signature-delete-error">{describeError(remove.error, t)}</Alert> : null}
      onConfirm={() => signature && remove.mutate({ id: signature.id }, { onSuccess: onClose })}
    />
  );
}

export function SignaturesEditor() {
  const { t, locale } = useI18n();
  const s = t.contacts.signatures;
  const list = useSignatures();
  // null: closed; 'new': creating; a signature: editing it.
  const [editing, setEditing] = useState<Signature | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Signature | null>(null);
  const full = (list.data?.length ?? 0) >= signatureLimit;
  return (
    <section aria-labelledby="signatures-heading" data-testid="signatures">
      <SectionHeader
        id="signatures-heading"
        title={s.listTitle}
        description={s.listDescription(signatureLimit)}
        actions={
          <Button variant="primary" size="sm" disabled={full} onClick={() => setEditing('new')} data-testid="signature-new">
            <PlusIcon />
            {s.add}
          </Button>
        }
      />
      {list.isPending ? (
        <LoadingState rows={2} />
      ) : list.isError ? (
        <ErrorState error={list.error} onRetry={() => list.refetch()} testId="signatures-error" />
      ) : list.data.length === 0 ? (
        <EmptyState title={s.empty.title} body={s.empty.body} />
      ) : (
        <ul className="divide-y divide-line rounded-lg border border-line bg-surface">
          {list.data.map((signature) => (
            <li key={signature.id} className="flex flex-wrap items-start gap-3 px-4 py-3" data-testid="signature-row">
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium">{signature.name}</p>
                <p className="mt-0.5 line-clamp-2 text-xs whitespace-pre-line text-muted">{signature.text || s.noText}</p>
                <p className="mt-1 text-[11px] text-muted">{formatDateTime(signature.updatedAt, locale)}</p>
              </div>
              <div className="flex gap-1">
                <Button size="sm" variant="ghost" aria-label={s.editLabel(signature.name)} onClick={() => setEditing(signature)}>
                  <PencilIcon />
                  {s.edit}
                </Button>
                <Button size="sm" variant="dangerGhost" aria-label={s.deleteLabel(signature.name)} onClick={() => setDeleting(signature)}>
                  <TrashIcon />
                  {s.delete}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Dialog open={editing !== null} onOpenChange={(open) => (open ? undefined : setEditing(null))}>
        {editing !== null ? (
          <DialogContent title={editing === 'new' ? s.createTitle : s.editTitle(editing.name)} size="lg">
            <SignatureForm signature={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
          </DialogContent>
        ) : null}
      </Dialog>
      <DeleteSignatureDialog signature={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
