/**
 * The three defaults layers: the organisation's (administrators write them; every member reads them,
 * they resolve every member's cards), the member's own, and a mailbox's (its owner's; its
 * `signatureId` is the mailbox's default signature). A PUT replaces the layer: a field left out is
 * null. The organisation's changes are audited (`contacts.org_defaults_saved`).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db } from '../../core/db';
import { canonicalLanguage, ownedMailboxOrThrow, ownedSignatureOrThrow, requireAdmin } from './access';
import { presentDefaults, presentMemberDefaults } from './present';
import { findMailboxDefaults, findMemberDefaults, findOrgDefaults, upsertMailboxDefaults, upsertMemberDefaults, upsertOrgDefaults } from './repo-settings';
import type { PutMailboxDefaultsInput, PutMemberDefaultsInput, PutOrgDefaultsInput } from './schemas';

export async function getDefaults(actor: AuthenticatedActor, input: { mailboxId?: string }) {
  const memberId = actor.member.id;
  const mailboxId = input.mailboxId === undefined ? null : await ownedMailboxOrThrow(memberId, input.mailboxId);
  const [organisation, member, mailbox] = await Promise.all([findOrgDefaults(), findMemberDefaults(memberId), mailboxId ? findMailboxDefaults(mailboxId) : null]);
  return {
    organisation: presentDefaults(organisation),
    member: presentMemberDefaults(member),
    mailbox: mailboxId ? { ...presentMemberDefaults(mailbox), mailboxId } : null,
  };
}

const common = (input: PutOrgDefaultsInput) => ({
  formality: input.formality ?? null,
  tone: input.tone ?? null,
  language: canonicalLanguage(input.language),
  notes: input.notes ?? null,
});

export async function putOrgDefaults(actor: AuthenticatedActor, input: PutOrgDefaultsInput, ip: string | null) {
  requireAdmin(actor);
  const data = common(input);
  const row = await db().$transaction(async (tx) => {
    const saved = await upsertOrgDefaults(tx, data);
    await recordAudit(auditByOf(actor), { action: 'contacts.org_defaults_saved', targetKind: 'contact_org_defaults', targetId: null, details: data, ip }, tx);
    return saved;
  });
  return { organisation: presentDefaults(row) };
}

export async function putMemberDefaults(actor: AuthenticatedActor, input: PutMemberDefaultsInput) {
  const memberId = actor.member.id;
  const data = { ...common(input), signatureId: await ownedSignatureOrThrow(memberId, input.signatureId) };
  const row = await db().$transaction((tx) => upsertMemberDefaults(tx, memberId, data));
  return { member: presentMemberDefaults(row) };
}

export async function putMailboxDefaults(actor: AuthenticatedActor, input: PutMailboxDefaultsInput) {
  const memberId = actor.member.id;
  const mailboxId = await ownedMailboxOrThrow(memberId, input.mailboxId);
  const data = { ...common(input), signatureId: await ownedSignatureOrThrow(memberId, input.signatureId) };
  const row = await db().$transaction((tx) => upsertMailboxDefaults(tx, mailboxId, data));
  return { mailbox: { ...presentMemberDefaults(row), mailboxId } };
}
