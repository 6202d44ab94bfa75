/**
 * The RFC 5322 message of an outbound item, built with nodemailer's MailComposer: From is the
 * mailbox's address with the member's display name (`Ada Lovelace <ada@example.com>`; nodemailer quotes and
 * encodes the name, control characters are dropped first), the Message-ID the one chosen when the item was made (so the sent copy is
 * recognised in the mirror), In-Reply-To/References from the item's threading, the text and/or HTML
 * body, and the attachments already resolved to bytes (./attachments.ts). File and URL access are off:
 * content comes only from the bytes given.
 *
 * Bcc: the message delivered over SMTP carries no Bcc header (the recipients travel in the envelope
 * only); `keepBcc` builds the copy that keeps it: the Sent folder's copy, and the message handed to an
 * OAuth provider, which reads Bcc from it and strips it from what it delivers.
 */
import MailComposer from 'nodemailer/lib/mail-composer';

export interface MimeAttachment {
  filename: string;
  mime: string;
  content: Buffer;
}

export interface MimeInput {
  from: string;
  /** The sender's display name (the member's name); empty or absent: the address alone. */
  fromName?: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  messageIdHeader: string;
  inReplyTo: string | null;
  references: string[];
  date: Date;
  bodyText: string | null;
  bodyHtml: string | null;
  attachments: MimeAttachment[];
}

/** A display name fit for a header: no control characters (no header injection), single-spaced, at most 120 characters. */
export function displayName(name: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return (name ?? '').replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 120).trim();
}

export function buildMime(input: MimeInput, options: { keepBcc?: boolean } = {}): Promise<Buffer> {
  const name = displayName(input.fromName);
  const composer = new MailComposer({
    from: name ? { name, address: input.from } : input.from,
    to: input.to.length > 0 ? input.to : undefined,
    cc: input.cc.length > 0 ? input.cc : undefined,
    bcc: input.bcc.length > 0 ? input.bcc : undefined,
    subject: input.subject,
    messageId: input.messageIdHeader,
    inReplyTo: input.inReplyTo ?? undefined,
    references: input.references.length > 0 ? input.references : undefined,
    date: input.date,
    // An item with neither body still makes a valid (empty) text message.
    text: input.bodyText ?? (input.bodyHtml === null ? '' : undefined),
    html: input.bodyHtml ?? undefined,
    attachments: input.attachments.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      contentType: attachment.mime,
      contentDisposition: 'attachment',
    })),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const node = composer.compile();
  node.keepBcc = options.keepBcc === true;
  return new Promise((resolve, reject) => {
    node.build((error, message) => (error ? reject(error) : resolve(message)));
  });
}

/** Every recipient of the envelope (To, Cc and Bcc), each once, in order. */
export function envelopeRecipients(input: Pick<MimeInput, 'to' | 'cc' | 'bcc'>): string[] {
  const seen = new Set<string>();
  const all: string[] = [];
  for (const address of [...input.to, ...input.cc, ...input.bcc]) {
    const key = address.trim().toLowerCase();
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    all.push(address.trim());
  }
  return all;
}
