/**
 * The signature a message to an address carries, for the workflow mail nodes and the webmail's
 * compose (issue 22, "every draft written for its recipient"): the resolved `signatureId` of the
 * recipient from the sending mailbox's point of view (a card's signature, else the mailbox's default,
 * else the member's), with its text and its HTML (stored sanitised when it was saved, signatures.ts).
 * `appendSignature` puts it under a body, once.
 */
import type { db, Tx } from '../../core/db';
import { findOwnedSignature } from './repo-settings';
import { resolveContact } from './resolution';

type Client = Tx | ReturnType<typeof db>;

export interface SignatureBody {
  id: string;
  text: string;
  /** Sanitised HTML, or null: the text is shown instead (escaped, line breaks kept). */
  html: string | null;
}

/** The signature for a message from `mailboxId` to `address`, or null when none applies. */
export async function signatureFor(input: { memberId: string; mailboxId: string; address: string }, client?: Client): Promise<SignatureBody | null> {
  const { resolved } = await resolveContact(input, client);
  if (!resolved.signatureId) return null;
  const row = await findOwnedSignature(input.memberId, resolved.signatureId, client);
  if (!row || (row.text.trim() === '' && !row.html)) return null;
  return { id: row.id, text: row.text, html: row.html };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The marker of an appended HTML signature: a body carrying it is never signed again. */
export const signatureMarker = 'data-mail-signature';

/**
 * The bodies with the signature under them: the text after the usual `-- ` delimiter line (RFC 3676
 * §4.3), the HTML (or the escaped text) in a `<div data-mail-signature>` at the end. Never twice: a
 * text body that already holds the signature's text, or an HTML body that already holds the marker or
 * the signature's HTML, is left as it is, so a body prepared again (a retried step, a draft edited and
 * sent) or a body a model already signed comes out signed once. A null body stays null, except that a
 * message with no body at all gets the text.
 */
export function appendSignature(bodies: { bodyText: string | null; bodyHtml: string | null }, signature: SignatureBody): { bodyText: string | null; bodyHtml: string | null } {
  const text = signature.text.trim();
  let { bodyText, bodyHtml } = bodies;
  if (bodyText === null && bodyHtml === null) bodyText = '';
  if (bodyText !== null && text !== '' && !bodyText.includes(text)) {
    bodyText = bodyText.trimEnd() === '' ? `-- \n${text}` : `${bodyText.trimEnd()}\n\n-- \n${text}`;
  }
  if (bodyHtml !== null) {
    const html = signature.html?.trim() || escapeHtml(text).replace(/\r?\n/g, '<br>');
    if (html !== '' && !bodyHtml.includes(signatureMarker) && !bodyHtml.includes(html)) {
      const block = `<div ${signatureMarker}="${escapeHtml(signature.id)}">-- <br>${html}</div>`;
      bodyHtml = /<\/body>/i.test(bodyHtml) ? bodyHtml.replace(/<\/body>(?![\s\S]*<\/body>)/i, `${block}</body>`) : `${bodyHtml}${block}`;
    }
  }
  return { bodyText, bodyHtml };
}
