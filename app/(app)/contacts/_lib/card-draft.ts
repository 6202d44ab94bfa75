/**
 * A card's form as typed → the body of PUT /api/v1/contacts, and a card as stored → the form. Pure and
 * tested without a browser. PUT replaces the whole card, so the body carries every field of its layer
 * (an emptied field is null). The language is checked here with the schema's own rule, so a wrong tag
 * is said next to its field before anything is sent.
 */
import { normaliseValue, type ContactKind } from '@/server/domains/contacts/normalise';
import type { ContactStatus, Formality, Tone } from '@/server/domains/contacts/resolve';

export const languageTag = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

export interface SharedDraft {
  displayName: string;
  status: ContactStatus | '';
  language: string;
  orgNotes: string;
}

export interface MemberDraft {
  formality: Formality | '';
  tone: Tone | '';
  language: string;
  signatureId: string;
  personalNotes: string;
}

export type CardLayer = { layer: 'shared' } | { layer: 'member'; mailboxId?: string };

export const emptySharedDraft: SharedDraft = { displayName: '', status: '', language: '', orgNotes: '' };
export const emptyMemberDraft: MemberDraft = { formality: '', tone: '', language: '', signatureId: '', personalNotes: '' };

export function sharedDraftOf(card: { displayName: string | null; status: ContactStatus | null; language: string | null; orgNotes: string | null } | null): SharedDraft {
  if (!card) return emptySharedDraft;
  return { displayName: card.displayName ?? '', status: card.status ?? '', language: card.language ?? '', orgNotes: card.orgNotes ?? '' };
}

export function memberDraftOf(
  card: { formality: Formality | null; tone: Tone | null; language: string | null; signatureId: string | null; personalNotes: string | null } | null,
): MemberDraft {
  if (!card) return emptyMemberDraft;
  return { formality: card.formality ?? '', tone: card.tone ?? '', language: card.language ?? '', signatureId: card.signatureId ?? '', personalNotes: card.personalNotes ?? '' };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** Whether the language field is acceptable (empty, or a tag such as `fr`, `en-GB`). */
export function languageOk(language: string): boolean {
  return language.trim() === '' || languageTag.test(language.trim());
}

export function sharedBody(kind: ContactKind, value: string, draft: SharedDraft) {
  return {
    kind,
    value,
    layer: 'shared' as const,
    displayName: orNull(draft.displayName),
    status: draft.status === '' ? null : draft.status,
    language: orNull(draft.language),
    orgNotes: orNull(draft.orgNotes),
  };
}

export function memberBody(kind: ContactKind, value: string, draft: MemberDraft, mailboxId?: string) {
  return {
    kind,
    value,
    layer: 'member' as const,
    ...(mailboxId ? { mailboxId } : {}),
    formality: draft.formality === '' ? null : draft.formality,
    tone: draft.tone === '' ? null : draft.tone,
    language: orNull(draft.language),
    signatureId: draft.signatureId === '' ? null : draft.signatureId,
    personalNotes: orNull(draft.personalNotes),
  };
}

/** The stored form of what is typed in "Address or domain", or null while it is not one. */
export function storedValue(kind: ContactKind, raw: string): string | null {
  return raw.trim() === '' ? null : normaliseValue(kind, raw);
}
