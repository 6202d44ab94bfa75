'use client';

/**
 * The fields a card and a set of writing defaults share (formality, tone, language), so the member's card, the
 * mailbox's card and the three defaults editors offer the same choices with the same words and bounds.
 */
import { useI18n } from '@/app/i18n/client';
import { SelectField, TextField } from '@/app/ui/field';
import { formalities, tones, type Formality, type Tone } from '@/server/domains/contacts/resolve';
import { contactBounds } from '@/server/domains/contacts/schemas';

export function FormalityField({ label, value, onChange }: { label: string; value: Formality | ''; onChange: (value: Formality | '') => void }) {
  const c = useI18n().t.contacts;
  return (
    <SelectField label={label} value={value} onChange={(event) => onChange(event.target.value as Formality | '')}>
      <option value="">{c.notSet}</option>
      {formalities.map((formality) => (
        <option key={formality} value={formality}>
          {c.formalities[formality]}
        </option>
      ))}
    </SelectField>
  );
}

export function ToneField({ label, value, onChange }: { label: string; value: Tone | ''; onChange: (value: Tone | '') => void }) {
  const c = useI18n().t.contacts;
  return (
    <SelectField label={label} value={value} onChange={(event) => onChange(event.target.value as Tone | '')}>
      <option value="">{c.notSet}</option>
      {tones.map((tone) => (
        <option key={tone} value={tone}>
          {c.tones[tone]}
        </option>
      ))}
    </SelectField>
  );
}

/** A BCP 47 tag, free text checked on submit (`languageOk`); `error` is the refusal to show. */
export function LanguageField({ label, value, error, onChange }: { label: string; value: string; error?: string; onChange: (value: string) => void }) {
  const { t } = useI18n();
  return (
    <TextField
      label={label}
      optional={t.common.optional}
      hint={t.contacts.cards.languageHint}
      error={error}
      value={value}
      maxLength={contactBounds.language}
      spellCheck={false}
      autoComplete="off"
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
