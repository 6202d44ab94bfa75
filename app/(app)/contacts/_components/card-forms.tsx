'use client';

/**
 * The editors of one card: the organisation's (administrators), the member's own, and the member's card
 * for one of their mailboxes (the same fields with `mailboxId`). Each saves the whole card (PUT replaces
 * it) and deletes exactly that card (the spec's three deletion cases: shared; member without
 * `mailboxId`: the global card only; member with it: that mailbox's card only). A form reads its card
 * when it mounts (the parent keys it by layer and mailbox) and empties itself when its card is deleted.
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { ConfirmDialog } from '@/app/ui/dialog';
import { SelectField, TextareaField, TextField } from '@/app/ui/field';
import { TrashIcon } from '@/app/ui/icons';
import type { ContactKind } from '@/server/domains/contacts/normalise';
import { contactStatuses, type ContactStatus } from '@/server/domains/contacts/resolve';
import { contactBounds } from '@/server/domains/contacts/schemas';
import { useContactActions, useSignatures, type ContactEntry } from '../_lib/api';
import { emptyMemberDraft, emptySharedDraft, memberBody, memberDraftOf, sharedBody, sharedDraftOf, type MemberDraft, type SharedDraft } from '../_lib/card-draft';
import { FormalityField, LanguageField, ToneField, useWritingDraft } from './writing-fields';

interface Target {
  kind: ContactKind;
  value: string;
}

function FormFooter({ pending, saved, onDelete, canDelete, testId }: { pending: boolean; saved: boolean; onDelete: () => void; canDelete: boolean; testId: string }) {
  const { t } = useI18n();
  const c = t.contacts.cards;
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3">
      <Button type="submit" variant="primary" loading={pending} data-testid={`${testId}-save`}>
        {pending ? c.saving : c.save}
      </Button>
      {saved ? (
        <p role="status" className="text-sm text-muted">
          {c.saved}
        </p>
      ) : null}
      {canDelete ? (
        <Button variant="dangerGhost" className="ml-auto" onClick={onDelete} data-testid={`${testId}-delete`}>
          <TrashIcon />
          {c.delete}
        </Button>
      ) : null}
    </div>
  );
}

function DeleteCardDialog({
  open,
  onClose,
  target,
  body,
  input,
  onDeleted,
}: {
  open: boolean;
  onClose: () => void;
  target: Target;
  body: string;
  input: { layer: 'shared' | 'member'; mailboxId?: string };
  onDeleted: () => void;
}) {
  const { t } = useI18n();
  const c = t.contacts.cards;
  const { remove } = useContactActions();
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          remove.reset();
          onClose();
        }
      }}
      title={c.deleteTitle(target.value)}
      description={body}
      confirmLabel={remove.isPending ? c.deleting : c.delete}
      pending={remove.isPending}
      error={remove.isError ? <Alert tone="danger" testId="delete-card-error">{describeError(remove.error, t)}</Alert> : null}
      onConfirm={() =>
        remove.mutate(
          { kind: target.kind, value: target.value, ...input },
          {
            onSuccess: () => {
              onDeleted();
              onClose();
            },
          },
        )
      }
    />
  );
}

export function SharedCardForm({ target, card }: { target: Target; card: ContactEntry['shared'] }) {
  const { t } = useI18n();
  const c = t.contacts;
  const { save } = useContactActions();
  const { draft, change, saved, markSaved, reset, languageError, changeLanguage, languageAccepted } = useWritingDraft<SharedDraft>(() => sharedDraftOf(card));
  const [deleting, setDeleting] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!languageAccepted()) return;
    save.mutate(sharedBody(target.kind, target.value, draft), { onSuccess: markSaved });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={c.entry.tabs.shared} data-testid="card-form-shared">
      <p className="mb-4 text-sm text-muted">{card ? c.cards.sharedHelp : `${c.cards.sharedHelp} ${c.cards.none}`}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={c.cards.displayName} optional={t.common.optional} value={draft.displayName} maxLength={contactBounds.displayName} onChange={(event) => change({ displayName: event.target.value })} />
        <SelectField label={c.cards.status} value={draft.status} onChange={(event) => change({ status: event.target.value as ContactStatus | '' })}>
          <option value="">{c.notSet}</option>
          {contactStatuses.map((status) => (
            <option key={status} value={status}>
              {c.statuses[status]}
            </option>
          ))}
        </SelectField>
        <LanguageField
          label={c.cards.language}
          value={draft.language}
          error={languageError}
          onChange={changeLanguage}
        />
      </div>
      <div className="mt-4">
        <TextareaField label={c.cards.orgNotes} optional={t.common.optional} value={draft.orgNotes} maxLength={contactBounds.notes} onChange={(event) => change({ orgNotes: event.target.value })} />
      </div>
      {save.isError ? (
        <Alert tone="danger" testId="card-shared-error" className="mt-4">
          {describeError(save.error, t)}
        </Alert>
      ) : null}
      <FormFooter pending={save.isPending} saved={saved} canDelete={card !== null} onDelete={() => setDeleting(true)} testId="card-shared" />
      <DeleteCardDialog open={deleting} onClose={() => setDeleting(false)} target={target} body={c.cards.deleteBody.shared} input={{ layer: 'shared' }}
        onDeleted={() => {
          reset(emptySharedDraft);
        }}
      />
    </form>
  );
}

export function MemberCardForm({
  target,
  card,
  mailbox,
}: {
  target: Target;
  card: ContactEntry['member'];
  /** The mailbox this card is for; none: the member's own card. */
  mailbox?: { id: string; address: string };
}) {
  const { t } = useI18n();
  const c = t.contacts;
  const { save } = useContactActions();
  const signatures = useSignatures();
  const { draft, change, saved, markSaved, reset, languageError, changeLanguage, languageAccepted } = useWritingDraft<MemberDraft>(() => memberDraftOf(card));
  const [deleting, setDeleting] = useState(false);
  const testId = mailbox ? 'card-mailbox' : 'card-mine';
  const help = mailbox ? c.cards.mailboxHelp(mailbox.address) : c.cards.mineHelp;
  // A signature named by the card but not in the list (deleted meanwhile) still shows as chosen.
  const knownSignature = draft.signatureId === '' || (signatures.data ?? []).some((signature) => signature.id === draft.signatureId);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!languageAccepted()) return;
    save.mutate(memberBody(target.kind, target.value, draft, mailbox?.id), { onSuccess: markSaved });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={mailbox ? c.entry.tabs.mailbox(mailbox.address) : c.entry.tabs.mine} data-testid={`${testId}-form`}>
      <p className="mb-4 text-sm text-muted">{card ? help : `${help} ${c.cards.none}`}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormalityField label={c.cards.formality} value={draft.formality} onChange={(formality) => change({ formality })} />
        <ToneField label={c.cards.tone} value={draft.tone} onChange={(tone) => change({ tone })} />
        <LanguageField
          label={c.cards.language}
          value={draft.language}
          error={languageError}
          onChange={changeLanguage}
        />
        <SelectField label={c.cards.signature} value={draft.signatureId} onChange={(event) => change({ signatureId: event.target.value })}>
          <option value="">{c.cards.noSignature}</option>
          {(signatures.data ?? []).map((signature) => (
            <option key={signature.id} value={signature.id}>
              {signature.name}
            </option>
          ))}
          {knownSignature ? null : <option value={draft.signatureId}>{t.contacts.notSet}</option>}
        </SelectField>
      </div>
      <div className="mt-4">
        <TextareaField label={c.cards.personalNotes} optional={t.common.optional} value={draft.personalNotes} maxLength={contactBounds.notes} onChange={(event) => change({ personalNotes: event.target.value })} />
      </div>
      {save.isError ? (
        <Alert tone="danger" testId={`${testId}-error`} className="mt-4">
          {describeError(save.error, t)}
        </Alert>
      ) : null}
      <FormFooter pending={save.isPending} saved={saved} canDelete={card !== null} onDelete={() => setDeleting(true)} testId={testId} />
      <DeleteCardDialog
        open={deleting}
        onClose={() => setDeleting(false)}
        target={target}
        body={mailbox ? c.cards.deleteBody.mailbox(mailbox.address) : c.cards.deleteBody.member}
        input={mailbox ? { layer: 'member', mailboxId: mailbox.id } : { layer: 'member' }}
        onDeleted={() => {
          reset(emptyMemberDraft);
        }}
      />
    </form>
  );
}
