'use client';

/**
 * A card for a new address or domain: kind, value (its stored form previewed as typed), and the layer it
 * goes in (the organisation's for administrators, the member's own, or the member's for one of their
 * mailboxes). Nothing is written here: the entry's dialog opens on that layer's editor, which creates the
 * card when saved (so choosing a value that already has a card opens that card, never blanks it).
 */
import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import type { Mailbox } from '@/app/lib/mail-types';
import { Dialog, DialogBody, DialogContent, DialogForm, FormDialogFooter } from '@/app/ui/dialog';
import { SelectField, TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { maxValueLength, type ContactKind } from '@/server/domains/contacts/normalise';
import { storedValue } from './_lib/card-draft';
import type { EntryOpening } from './entry-dialog';

/** '' is the member's own card, 'shared' the organisation's, otherwise a mailbox id. */
type LayerChoice = string;

function NewCardForm({ mailboxes, isAdmin, onChosen }: { mailboxes: Mailbox[]; isAdmin: boolean; onChosen: (opening: EntryOpening) => void }) {
  const { t } = useI18n();
  const c = t.contacts;
  const [kind, setKind] = useState<ContactKind>('contact');
  const [value, setValue] = useState('');
  const [layer, setLayer] = useState<LayerChoice>(isAdmin ? 'shared' : '');
  const { errors, setErrors, clearError } = useFieldErrors<{ value?: string }>();
  const preview = storedValue(kind, value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!preview) {
      setErrors({ value: c.create.invalid[kind] });
      return;
    }
    const target = { kind, value: preview };
    onChosen(layer === 'shared' ? { target, mailboxId: '', tab: 'shared' } : layer ? { target, mailboxId: layer, tab: 'mailbox' } : { target, mailboxId: '', tab: 'mine' });
  };

  return (
    <DialogForm onSubmit={submit} aria-label={c.create.title}>
      <DialogBody className="space-y-4">
        <SelectField
          label={c.create.kind}
          value={kind}
          onChange={(event) => {
            setKind(event.target.value as ContactKind);
            clearError('value');
          }}
        >
          <option value="contact">{c.kinds.contact}</option>
          <option value="domain">{c.kinds.domain}</option>
        </SelectField>
        <TextField
          label={c.create.value}
          value={value}
          maxLength={maxValueLength}
          autoComplete="off"
          spellCheck={false}
          placeholder={c.create.valuePlaceholder[kind]}
          hint={preview ? c.create.preview(preview) : undefined}
          error={errors.value}
          onChange={(event) => {
            setValue(event.target.value);
            clearError('value');
          }}
        />
        <SelectField label={c.create.layer} value={layer} onChange={(event) => setLayer(event.target.value)}>
          {isAdmin ? <option value="shared">{c.create.layerOptions.shared}</option> : null}
          <option value="">{c.create.layerOptions.mine}</option>
          {mailboxes.map((mailbox) => (
            <option key={mailbox.id} value={mailbox.id}>
              {c.create.layerOptions.mailbox(mailbox.address)}
            </option>
          ))}
        </SelectField>
      </DialogBody>
      <FormDialogFooter pending={false} submitLabel={c.create.submit} pendingLabel={c.create.submit} />
    </DialogForm>
  );
}

export function NewCardDialog({
  open,
  onOpenChange,
  mailboxes,
  isAdmin,
  onChosen,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  mailboxes: Mailbox[];
  isAdmin: boolean;
  onChosen: (opening: EntryOpening) => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent title={t.contacts.create.title} description={t.contacts.create.description}>
          <NewCardForm mailboxes={mailboxes} isAdmin={isAdmin} onChosen={onChosen} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
