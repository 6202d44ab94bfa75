/**
 * Drafts in the mailbox: an outbound item of mode `draft` waiting for review is also placed in the
 * mailbox's Drafts folder (IMAP APPEND with \Draft), so the member sees it in their own mail client.
 * Its server identity is kept in `draftProviderKey` (the mirror's IMAP provider key,
 * "<folder>\n<UIDVALIDITY>\n<UID>"). When the mirror's sync loses that message while the item is still
 * pending, the member deleted or sent it from their client: the item becomes `gone`
 * (`markDraftsGone`, called by the mirror writer). Once the item is sent or rejected through the
 * review, the placed copy is deleted (`removeDraft`).
 *
 * OAuth providers (mail_provider_a/b): drafts stay in the application only (nothing is placed).
 *
 * Jobs `mail.place-draft` and `mail.remove-draft` share one key per item, so a removal queued before
 * the placement ran replaces it; placement and removal running at once are safe too (placement keeps
 * its copy only if the item is still pending when it records the key, else deletes it at once).
 */
import type { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer';
import { db, type Tx } from '../../core/db';
import { enqueue } from '../../core/jobs/enqueue';
import { jobKeys } from '../../core/jobs/catalogue';
import type { RawSql } from '../mirror/pg-transaction';
import { closeImap, openImapClient } from '../imap/sync/connect';
import { imapProviderKey, parseImapProviderKey } from '../imap/sync/provider-key';

export type DraftOutcome = 'placed' | 'already_placed' | 'not_applicable' | 'withdrawn';

/** The fields of an outbound row the draft's MIME is built from. */
export interface DraftContent {
  mailboxAddress: string;
  toAddrs: string[];
  ccAddrs: string[];
  bccAddrs: string[];
  subject: string;
  bodyText: string | null;
  bodyHtml: string | null;
  messageIdHeader: string;
  inReplyTo: string | null;
  references: string[];
}

/** The draft as a mail client will open it: From, To, Cc, Bcc (kept: the client sends to them), threading headers, text and HTML. */
export function buildDraftMime(item: DraftContent, date = new Date()): Promise<Buffer> {
  const composer = new MailComposer({
    from: item.mailboxAddress,
    to: item.toAddrs,
    cc: item.ccAddrs,
    bcc: item.bccAddrs,
    subject: item.subject,
    text: item.bodyText ?? undefined,
    html: item.bodyHtml ?? undefined,
    messageId: item.messageIdHeader,
    inReplyTo: item.inReplyTo ?? undefined,
    references: item.references.length > 0 ? item.references : undefined,
    date,
  });
  const mail = composer.compile();
  mail.keepBcc = true;
  return new Promise((resolve, reject) => mail.build((error, message) => (error ? reject(error) : resolve(message))));
}

/** Adds the placement job of a new draft item (in the creating transaction). */
export async function enqueuePlaceDraft(outboundId: string, tx: Pick<Tx, '$executeRaw'>): Promise<void> {
  await enqueue('mail.place-draft', { outboundId }, { jobKey: jobKeys.draft(outboundId) }, tx);
}

/** Adds the removal job of a placed draft (when the item is sent or rejected through the review). */
export async function enqueueRemoveDraft(outboundId: string, tx: Pick<Tx, '$executeRaw'>): Promise<void> {
  await enqueue('mail.remove-draft', { outboundId }, { jobKey: jobKeys.draft(outboundId) }, tx);
}

async function imapMailboxOf(mailboxId: string) {
  const mailbox = await db().mailbox.findUnique({ where: { id: mailboxId }, include: { credential: true } });
  if (!mailbox || mailbox.provider !== 'imap' || mailbox.status === 'disconnected' || !mailbox.credential) return null;
  return mailbox;
}

/** The Drafts folder: the mirror's folder of role `drafts`, else the server's \Drafts, else "Drafts". */
async function draftsFolder(mailboxId: string, client: ImapFlow): Promise<string> {
  const mirrored = await db().mailFolder.findFirst({ where: { mailboxId, role: 'drafts' }, select: { key: true } });
  if (mirrored) return mirrored.key;
  const listed = await client.list();
  return listed.find((folder) => folder.specialUse === '\\Drafts')?.path ?? 'Drafts';
}

/** Deletes one message by UID if the folder is still the same generation. */
async function deleteByKey(client: ImapFlow, key: string): Promise<boolean> {
  const parsed = parseImapProviderKey(key);
  if (!parsed) return false;
  const opened = await client.mailboxOpen(parsed.folderKey);
  if (BigInt(opened.uidValidity) !== parsed.uidValidity) return false;
  return client.messageDelete(String(parsed.uid), { uid: true });
}

/** APPENDs the item's draft to the Drafts folder and records its provider key (idempotent). */
export async function placeDraft(outboundId: string): Promise<DraftOutcome> {
  const item = await db().outboundMessage.findUnique({ where: { id: outboundId } });
  if (!item || item.mode !== 'draft' || item.reviewStatus !== 'pending' || item.contentPurgedAt) return 'not_applicable';
  if (item.draftProviderKey) return 'already_placed';
  const mailbox = await imapMailboxOf(item.mailboxId);
  if (!mailbox) return 'not_applicable';

  const { client } = await openImapClient(mailbox);
  try {
    const folder = await draftsFolder(mailbox.id, client);
    // A retry after a crash between APPEND and the write below finds the copy by its Message-ID.
    let key: string | null = null;
    const opened = await client.mailboxOpen(folder);
    const found = await client.search({ header: { 'message-id': item.messageIdHeader } }, { uid: true });
    if (found && found.length > 0) {
      key = imapProviderKey(folder, BigInt(opened.uidValidity), found[found.length - 1]!);
    } else {
      const raw = await buildDraftMime(item);
      const appended = await client.append(folder, raw, ['\\Draft', '\\Seen']);
      if (!appended || appended.uid === undefined) throw new Error('The server did not accept the draft (APPEND refused or no UIDPLUS)');
      const validity = appended.uidValidity ?? BigInt(opened.uidValidity);
      key = imapProviderKey(folder, BigInt(validity), appended.uid);
    }
    const recorded = await db().outboundMessage.updateMany({
      where: { id: item.id, reviewStatus: 'pending', draftProviderKey: null },
      data: { draftProviderKey: key },
    });
    if (recorded.count === 1) return 'placed';
    // The item was decided (or placed by another run) meanwhile: this copy must not linger.
    const now = await db().outboundMessage.findUnique({ where: { id: item.id }, select: { draftProviderKey: true } });
    if (now?.draftProviderKey !== key) await deleteByKey(client, key);
    return 'withdrawn';
  } finally {
    await closeImap(client);
  }
}

/** Deletes the placed draft of an item that left the review (sent or rejected); forgets its key. */
export async function removeDraft(outboundId: string): Promise<'removed' | 'nothing'> {
  const item = await db().outboundMessage.findUnique({ where: { id: outboundId }, select: { id: true, mailboxId: true, reviewStatus: true, draftProviderKey: true } });
  if (!item?.draftProviderKey || item.reviewStatus === 'pending' || item.reviewStatus === 'snoozed') return 'nothing';
  const mailbox = await imapMailboxOf(item.mailboxId);
  if (mailbox) {
    const { client } = await openImapClient(mailbox);
    try {
      await deleteByKey(client, item.draftProviderKey);
    } finally {
      await closeImap(client);
    }
  }
  await db().outboundMessage.updateMany({ where: { id: item.id, draftProviderKey: item.draftProviderKey }, data: { draftProviderKey: null } });
  return 'removed';
}

/**
 * The mirror lost these messages (expunged or moved on the server): items still waiting for review
 * whose placed draft was one of them are `gone`. Called by the mirror writer in its batch transaction.
 */
export async function markDraftsGone(tx: RawSql, mailboxId: string, providerKeys: string[]): Promise<number> {
  if (providerKeys.length === 0) return 0;
  return tx.$executeRawUnsafe(
    `UPDATE outbound_messages SET review_status = 'gone', updated_at = now()
      WHERE mailbox_id = $1::uuid AND draft_provider_key = ANY($2::text[]) AND review_status IN ('pending', 'snoozed')`,
    mailboxId,
    providerKeys,
  );
}
