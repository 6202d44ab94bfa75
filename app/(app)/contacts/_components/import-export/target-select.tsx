'use client';

/** The address book a dialog works on: my cards, my cards for one of my mailboxes, or (administrators) the organisation's. */
import { SelectField } from '@/app/ui/field';
import type { ImportExportTexts } from './_i18n/en-import-export';
import { useOwnMailboxes, type Target } from './api';

const encode = (target: Target) => (target.layer === 'shared' ? 'shared' : target.mailboxId ? `mailbox:${target.mailboxId}` : 'member');
const decode = (value: string): Target =>
  value === 'shared' ? { layer: 'shared' } : value.startsWith('mailbox:') ? { layer: 'member', mailboxId: value.slice('mailbox:'.length) } : { layer: 'member' };

export function TargetSelect({
  target,
  onChange,
  canWriteShared,
  sharedReadable,
  disabled,
  texts,
  testId,
}: {
  target: Target;
  onChange: (target: Target) => void;
  /** Import: the shared layer is offered to administrators only. */
  canWriteShared: boolean;
  /** Export: every member reads the shared cards. */
  sharedReadable?: boolean;
  disabled?: boolean;
  texts: ImportExportTexts;
  testId: string;
}) {
  const mailboxes = useOwnMailboxes();
  return (
    <SelectField label={texts.layer} value={encode(target)} onChange={(event) => onChange(decode(event.target.value))} disabled={disabled} data-testid={testId}>
      <option value="member">{texts.layers.member}</option>
      {(mailboxes.data ?? []).map((mailbox) => (
        <option key={mailbox.id} value={`mailbox:${mailbox.id}`}>
          {texts.layers.mailbox(mailbox.address)}
        </option>
      ))}
      {canWriteShared || sharedReadable ? <option value="shared">{texts.layers.shared}</option> : null}
    </SelectField>
  );
}
