/** What the address book's use cases check before acting: the caller's mailbox, the admin role, a signature of theirs. */
import type { AuthenticatedActor } from '../../core/auth/access';
import { appError } from '../../core/errors/app-error';
import { findOwnedMailbox } from './repo';
import { findOwnedSignature } from './repo-settings';

/** The member's own mailbox id; an unknown, malformed or another member's id is `contacts.mailbox_not_found` (404). */
export async function ownedMailboxOrThrow(memberId: string, id: string): Promise<string> {
  const mailbox = await findOwnedMailbox(memberId, id);
  if (!mailbox) throw appError('contacts.mailbox_not_found');
  return mailbox.id;
}

/** The member's own signature id (null stays null); another member's or an unknown one is `contacts.signature_not_found` (404). */
export async function ownedSignatureOrThrow(memberId: string, id: string | null | undefined): Promise<string | null> {
  if (id === null || id === undefined) return null;
  const signature = await findOwnedSignature(memberId, id);
  if (!signature) throw appError('contacts.signature_not_found');
  return signature.id;
}

/** The shared layer and the organisation's defaults: administrators only (403 `auth.forbidden`). */
export function requireAdmin(actor: AuthenticatedActor): void {
  if (actor.member.role !== 'admin') throw appError('auth.forbidden');
}

/** A language tag in its canonical case (`EN-gb` → `en-GB`); one the runtime refuses is a 400. */
export function canonicalLanguage(tag: string | null | undefined): string | null {
  if (tag === null || tag === undefined) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    throw appError('request.bad_request', { message: 'The language is not a valid language tag.', details: { field: 'language' } });
  }
}
