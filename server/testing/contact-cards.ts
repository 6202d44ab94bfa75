/**
 * Address book fixtures for tests of the product's use of it (trigger data, contacts.lookup, compose,
 * signatures): cards, signatures and defaults written directly, as the contacts routes store them
 * (values already normalised). The routes' own rules are tested in server/domains/contacts.
 */
import { db } from '../core/db';

interface CardFields {
  formality?: 'tu' | 'vous' | null;
  tone?: 'formal' | 'neutral' | 'casual' | null;
  language?: string | null;
  signatureId?: string | null;
  personalNotes?: string | null;
}

async function entryOf(kind: 'contact' | 'domain', value: string): Promise<string> {
  const entry = await db().contactEntry.upsert({ where: { kind_value: { kind, value } }, create: { kind, value }, update: {} });
  return entry.id;
}

export async function sharedCard(kind: 'contact' | 'domain', value: string, fields: { displayName?: string | null; status?: string | null; language?: string | null; orgNotes?: string | null }) {
  const entryId = await entryOf(kind, value);
  return db().contactSharedCard.upsert({ where: { entryId }, create: { entryId, ...fields }, update: fields });
}

export async function memberCard(memberId: string, kind: 'contact' | 'domain', value: string, fields: CardFields) {
  const entryId = await entryOf(kind, value);
  return db().contactMemberCard.upsert({ where: { entryId_memberId: { entryId, memberId } }, create: { entryId, memberId, ...fields }, update: fields });
}

export async function mailboxCard(memberId: string, mailboxId: string, kind: 'contact' | 'domain', value: string, fields: CardFields) {
  const entryId = await entryOf(kind, value);
  return db().contactMailboxCard.upsert({ where: { entryId_mailboxId: { entryId, mailboxId } }, create: { entryId, memberId, mailboxId, ...fields }, update: fields });
}

export function signature(memberId: string, fields: { name?: string; text: string; html?: string | null }) {
  return db().contactSignature.create({ data: { memberId, name: fields.name ?? 'Signature', text: fields.text, html: fields.html ?? null } });
}

export function mailboxDefaults(mailboxId: string, fields: { formality?: string | null; tone?: string | null; language?: string | null; signatureId?: string | null; notes?: string | null }) {
  return db().contactMailboxDefaults.upsert({ where: { mailboxId }, create: { mailboxId, ...fields }, update: fields });
}

export function memberDefaults(memberId: string, fields: { formality?: string | null; tone?: string | null; language?: string | null; signatureId?: string | null; notes?: string | null }) {
  return db().contactMemberDefaults.upsert({ where: { memberId }, create: { memberId, ...fields }, update: fields });
}
