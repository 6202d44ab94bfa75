'use client';

/**
 * What a card and a set of writing defaults share (formality, tone, language, and the draft they are edited in),
 * so the cards and the three defaults editors offer the same choices with the same words, bounds and checks.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { SelectField, TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { formalities, tones, type Formality, type Tone } from '@/server/domains/contacts/resolve';
import { contactBounds } from '@/server/domains/contacts/schemas';
import { languageOk } from '../_lib/card-draft';

/**
 * A form's draft: a change clears "saved"; `languageAccepted` checks the language tag before a save (false, and
 * the field says why, when it is not one); `reset` puts a draft back after the card is deleted.
 */
export function useWritingDraft<T extends { language: string }>(initial: () => T) {
  const invalidLanguage = useI18n().t.contacts.cards.invalidLanguage;
  const [draft, setDraft] = useState<T>(initial);
  const { errors, setErrors, clearError } = useFieldErrors<{ language?: string }>();
  const [saved, setSaved] = useState(false);
  const change = (patch: Partial<T>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setSaved(false);
  };
  return {
    draft,
    change,
    saved,
    markSaved: () => setSaved(true),
    reset: (next: T) => {
      setDraft(next);
      setSaved(false);
    },
    languageError: errors.language,
    changeLanguage: (language: string) => {
      change({ language } as Partial<T>);
      clearError('language');
    },
    languageAccepted: () => {
      if (languageOk(draft.language)) return true;
      setErrors({ language: invalidLanguage });
      return false;
    },
  };
}

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
