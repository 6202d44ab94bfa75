/** Stored cards and defaults → the API's shapes and the resolution's layer values. */
import { iso } from '../../core/http/schemas';
import type { MailboxCardRow, MemberCardRow, SharedCardRow } from './repo';
import type { ContactStatus, Formality, LayerValues, Tone } from './resolve';

export function presentShared(card: SharedCardRow) {
  return {
    id: card.id,
    displayName: card.displayName,
    language: card.language,
    status: card.status as ContactStatus | null,
    orgNotes: card.orgNotes,
    updatedAt: iso(card.updatedAt),
  };
}

export function presentMember(card: MemberCardRow) {
  return {
    id: card.id,
    formality: card.formality as Formality | null,
    tone: card.tone as Tone | null,
    language: card.language,
    signatureId: card.signatureId,
    personalNotes: card.personalNotes,
    updatedAt: iso(card.updatedAt),
  };
}

export function presentMailboxCard(card: MailboxCardRow) {
  return { ...presentMember(card), mailboxId: card.mailboxId };
}

interface DefaultsRow {
  formality: string | null;
  tone: string | null;
  language: string | null;
  notes: string | null;
  updatedAt: Date;
  signatureId?: string | null;
}

export function presentDefaults(row: DefaultsRow | null) {
  return {
    formality: (row?.formality ?? null) as Formality | null,
    tone: (row?.tone ?? null) as Tone | null,
    language: row?.language ?? null,
    notes: row?.notes ?? null,
    updatedAt: row ? iso(row.updatedAt) : null,
  };
}

export const presentMemberDefaults = (row: (DefaultsRow & { signatureId: string | null }) | null) => ({ ...presentDefaults(row), signatureId: row?.signatureId ?? null });

type SignatureTexts = Map<string, string>;

const signatureOf = (id: string | null | undefined, texts: SignatureTexts) => (id && texts.has(id) ? { id, text: texts.get(id)! } : null);

/** A layer's values from a shared card. */
export const sharedLayer = (card: SharedCardRow | undefined): LayerValues | null =>
  card ? { displayName: card.displayName, language: card.language, status: card.status as ContactStatus | null, notes: card.orgNotes } : null;

/** A layer's values from a member's card, global or for a mailbox. */
export const memberLayer = (card: MemberCardRow | MailboxCardRow | undefined, texts: SignatureTexts): LayerValues | null =>
  card
    ? { formality: card.formality as Formality | null, tone: card.tone as Tone | null, language: card.language, signature: signatureOf(card.signatureId, texts), notes: card.personalNotes }
    : null;

/** A layer's values from a defaults row. */
export const defaultsLayer = (row: DefaultsRow | null, texts: SignatureTexts): LayerValues | null =>
  row ? { formality: row.formality as Formality | null, tone: row.tone as Tone | null, language: row.language, signature: signatureOf(row.signatureId, texts), notes: row.notes } : null;
