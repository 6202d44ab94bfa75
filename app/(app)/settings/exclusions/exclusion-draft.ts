/**
 * Pure logic of the exclusion add form: the value as the server will store it, the checks made before
 * sending (the server's own rules, shared), and the server's error codes turned into an inline message.
 */
import { isValidExclusionValue, normaliseExclusionValue, type exclusionKinds } from '@/server/domains/exclusions/schemas';

export type ExclusionKind = (typeof exclusionKinds)[number];

export const valueMaxLength = 254;
export const noteMaxLength = 500;

export interface ExclusionDraft {
  kind: ExclusionKind;
  value: string;
  note: string;
}

export interface DraftMessages {
  valueRequired: string;
  invalidAddress: string;
  invalidDomain: string;
  valueTooLong: (max: number) => string;
  noteTooLong: (max: number) => string;
  duplicate: string;
  limitReached: string;
}

export type DraftErrors = Partial<Record<'value' | 'note', string>>;

/** The stored form when it differs from what was typed (shown as a preview), else null. */
export function storedPreview(kind: ExclusionKind, value: string): string | null {
  if (value.trim() === '') return null;
  const stored = normaliseExclusionValue(kind, value);
  return stored === value ? null : stored;
}

/** The body to send, or the inline errors to show. */
export function checkDraft(draft: ExclusionDraft, m: DraftMessages): { data: { kind: ExclusionKind; value: string; note?: string } } | { errors: DraftErrors } {
  const errors: DraftErrors = {};
  const value = draft.value.trim();
  const note = draft.note.trim();
  if (value === '') errors.value = m.valueRequired;
  else if (value.length > valueMaxLength) errors.value = m.valueTooLong(valueMaxLength);
  else if (!isValidExclusionValue(draft.kind, value)) errors.value = draft.kind === 'domain' ? m.invalidDomain : m.invalidAddress;
  if (note.length > noteMaxLength) errors.note = m.noteTooLong(noteMaxLength);
  if (errors.value || errors.note) return { errors };
  return { data: { kind: draft.kind, value, ...(note ? { note } : {}) } };
}

/**
 * The inline message for a refused add, by the server's error code (and, for a 400, the fields its
 * issues name); null when the error is not about the form's values (shown as a general alert instead).
 */
export function fieldErrorOf(code: string | null, kind: ExclusionKind, m: DraftMessages, issuePaths: readonly string[] = []): DraftErrors | null {
  switch (code) {
    case 'exclusion.duplicate':
      return { value: m.duplicate };
    case 'exclusion.limit_reached':
      return { value: m.limitReached };
    case 'request.bad_request': {
      const errors: DraftErrors = {};
      if (issuePaths.includes('note')) errors.note = m.noteTooLong(noteMaxLength);
      if (issuePaths.includes('value') || !errors.note) errors.value = kind === 'domain' ? m.invalidDomain : m.invalidAddress;
      return errors;
    }
    default:
      return null;
  }
}
