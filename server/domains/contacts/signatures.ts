/**
 * A member's signatures: a name, a plain text and an optional HTML form, sanitised when saved with the
 * mail sanitiser (server/mail/sanitize: scripts, forms, event handlers, unsafe links and CSS removed;
 * remote images kept, a signature's logo is the member's own) and kept as the body's inner HTML. A
 * card or a defaults layer names one by `signatureId`; deleting a signature clears those references
 * (the database's ON DELETE SET NULL). At most `signaturesPerMember` each.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { iso } from '../../core/http/schemas';
import { sanitizeInPool } from '../../mail/sanitize/sanitize-pool';
import { countSignatures, deleteSignature, findOwnedSignature, insertSignature, listSignatures, lockMemberSignatures, updateSignature } from './repo-settings';
import type { CreateSignatureInput, UpdateSignatureInput } from './schemas';

export const signaturesPerMember = 50;

type Row = { id: string; name: string; text: string; html: string | null; createdAt: Date; updatedAt: Date };

const present = (row: Row) => ({ id: row.id, name: row.name, text: row.text, html: row.html, createdAt: iso(row.createdAt), updatedAt: iso(row.updatedAt) });

/** The sanitised inner HTML of the body; null for none or nothing left. */
export async function sanitiseSignatureHtml(html: string | null | undefined): Promise<string | null> {
  if (html === null || html === undefined || html.trim() === '') return null;
  const sanitised = await sanitizeInPool(html, { allowRemoteImages: true });
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(sanitised.html)?.[1]?.trim() ?? '';
  return body === '' ? null : body;
}

export async function listMemberSignatures(actor: AuthenticatedActor) {
  return { signatures: (await listSignatures(actor.member.id)).map(present) };
}

export async function createSignature(actor: AuthenticatedActor, input: CreateSignatureInput) {
  const memberId = actor.member.id;
  const html = await sanitiseSignatureHtml(input.html);
  const row = await db().$transaction(async (tx) => {
    await lockMemberSignatures(tx, memberId);
    if ((await countSignatures(tx, memberId)) >= signaturesPerMember) throw appError('contacts.signature_limit_reached', { details: { limit: signaturesPerMember } });
    return insertSignature(tx, memberId, { name: input.name, text: input.text, html });
  });
  return { signature: present(row) };
}

export async function editSignature(actor: AuthenticatedActor, input: UpdateSignatureInput) {
  const existing = await findOwnedSignature(actor.member.id, input.id);
  if (!existing) throw appError('contacts.signature_not_found');
  const html = input.html === undefined ? undefined : await sanitiseSignatureHtml(input.html);
  const row = await updateSignature(existing.id, { name: input.name, text: input.text, html });
  return { signature: present(row) };
}

export async function removeSignature(actor: AuthenticatedActor, id: string): Promise<void> {
  const existing = await findOwnedSignature(actor.member.id, id);
  if (!existing) throw appError('contacts.signature_not_found');
  await deleteSignature(existing.id);
}
