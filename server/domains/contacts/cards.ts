/**
 * Writing cards: PUT /api/v1/contacts creates or replaces one card (the shared card, the member's own,
 * or the member's card for one of their mailboxes) and answers the entry resolved; DELETE removes one.
 * PUT replaces the whole card: a field left out is null. Changes of the shared layer are audited
 * (`contacts.shared_card_saved`, `contacts.shared_card_deleted`) in the transaction of the change.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { canonicalLanguage, ownedMailboxOrThrow, ownedSignatureOrThrow, requireAdmin } from './access';
import { presentEntry } from './list';
import { normaliseValue } from './normalise';
import { deleteMailboxCard, deleteMemberCard, deleteSharedCard, ensureEntry, findEntry, upsertMailboxCard, upsertMemberCard, upsertSharedCard } from './repo';
import { loadLayers } from './resolution';
import type { DeleteContactInput, PutContactInput } from './schemas';

export async function putContact(actor: AuthenticatedActor, input: PutContactInput, ip: string | null) {
  const memberId = actor.member.id;
  // The schema checked the value: normalising it again cannot fail.
  const value = normaliseValue(input.kind, input.value)!;
  if (input.layer === 'shared') requireAdmin(actor);
  const mailboxId = input.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, input.mailboxId);
  const language = canonicalLanguage(input.language);
  const signatureId = input.layer === 'member' ? await ownedSignatureOrThrow(memberId, input.signatureId) : null;
  await db().$transaction(async (tx) => {
    const entryId = await ensureEntry(tx, input.kind, value);
    if (input.layer === 'shared') {
      const data = { displayName: input.displayName ?? null, language, status: input.status ?? null, orgNotes: input.orgNotes ?? null };
      const card = await upsertSharedCard(tx, entryId, data, memberId);
      await recordAudit(auditByOf(actor), { action: 'contacts.shared_card_saved', targetKind: 'contact_shared_card', targetId: card.id, details: { kind: input.kind, value, ...data }, ip }, tx);
      return;
    }
    const data = { formality: input.formality ?? null, tone: input.tone ?? null, language, signatureId, personalNotes: input.personalNotes ?? null };
    if (mailboxId) await upsertMailboxCard(tx, entryId, memberId, mailboxId, data);
    else await upsertMemberCard(tx, entryId, memberId, data);
  });
  const target = { kind: input.kind, value };
  return presentEntry(await loadLayers(memberId, mailboxId, [target]), target, mailboxId);
}

/**
 * Removes one card: the shared card (administrators), the member's card for `mailboxId`, or without it
 * the member's global card only. Nothing to remove is still 204 (the card is gone either way). The
 * entry row stays (cards of other layers may hold it; an entry without a card is never listed).
 */
export async function deleteContact(actor: AuthenticatedActor, input: DeleteContactInput, ip: string | null): Promise<void> {
  const memberId = actor.member.id;
  const value = normaliseValue(input.kind, input.value)!;
  if (input.layer === 'shared') requireAdmin(actor);
  const mailboxId = input.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, input.mailboxId);
  const entry = await findEntry(input.kind, value);
  if (!entry) return;
  await db().$transaction(async (tx) => {
    if (input.layer === 'shared') {
      const removed = await deleteSharedCard(tx, entry.id);
      if (removed.count > 0) {
        await recordAudit(auditByOf(actor), { action: 'contacts.shared_card_deleted', targetKind: 'contact_entry', targetId: entry.id, details: { kind: input.kind, value }, ip }, tx);
      }
    } else if (mailboxId) {
      await deleteMailboxCard(tx, entry.id, memberId, mailboxId);
    } else {
      await deleteMemberCard(tx, entry.id, memberId);
    }
  });
}
