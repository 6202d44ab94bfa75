/**
 * Putting mail into a test mailbox the way a real server receives it: IMAP APPEND with imapflow
 * (never by writing maildir files), and an RFC 5322 / MIME message builder (nodemailer's
 * MailComposer) so tests describe messages by their fields.
 */
import { ImapFlow } from 'imapflow';
import MailComposer from 'nodemailer/lib/mail-composer';

/** Where to deliver: a started Dovecot (or any IMAP server reachable without TLS verification). */
export interface ImapEndpoint {
  host: string;
  /** Plaintext port; used with STARTTLS off (fast, test-only). */
  plainPort: number;
}

export interface ImapLogin {
  server: ImapEndpoint;
  user: string;
  password: string;
}

/** A connected, logged-in imapflow client on the plaintext port; `logout()` it when done. */
export async function openTestImap({ server, user, password }: ImapLogin): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: server.host,
    port: server.plainPort,
    secure: false,
    doSTARTTLS: false,
    auth: { user, pass: password },
    logger: false,
    disableAutoIdle: true,
  });
  client.on('error', () => {}); // a dropped test connection surfaces as the failing command instead
  await client.connect();
  return client;
}

export interface AppendOptions {
  folder?: string;
  raw: string | Buffer;
  /** IMAP flags such as `\\Seen`, `\\Flagged` or keywords. */
  flags?: string[];
  internalDate?: Date;
}

export interface AppendResult {
  /** UID the server gave the message (UIDPLUS; Dovecot always answers it). */
  uid: number | undefined;
  uidValidity: bigint | undefined;
  folder: string;
}

async function appendWith(client: ImapFlow, options: AppendOptions): Promise<AppendResult> {
  const folder = options.folder ?? 'INBOX';
  const result = await client.append(folder, options.raw, options.flags ?? [], options.internalDate);
  if (!result) throw new Error(`APPEND to ${folder} was refused`);
  return { uid: result.uid, uidValidity: result.uidValidity, folder };
}

/** One message, one connection: APPEND into `folder` (default INBOX). */
export async function appendMessage(options: ImapLogin & AppendOptions): Promise<AppendResult> {
  const client = await openTestImap(options);
  try {
    return await appendWith(client, options);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

/** Many messages over one connection, in order (for volume tests and benchmarks). */
export async function appendMessages(login: ImapLogin, messages: AppendOptions[]): Promise<AppendResult[]> {
  const client = await openTestImap(login);
  try {
    const results: AppendResult[] = [];
    for (const message of messages) results.push(await appendWith(client, message));
    return results;
  } finally {
    await client.logout().catch(() => client.close());
  }
}

export interface TestAttachment {
  filename: string;
  content: string | Buffer;
  contentType?: string;
  /** `inline` with a `cid` for images referenced from the HTML part. */
  contentDisposition?: 'attachment' | 'inline';
  cid?: string;
}

export interface RawMessageFields {
  from: string;
  to: string | string[];
  cc?: string | string[];
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
  /** With or without angle brackets; generated when absent. */
  messageId?: string;
  inReplyTo?: string;
  references?: string | string[];
  /** Default: now. */
  date?: Date;
  /** Extra headers (List-Id, Auto-Submitted, ...): values as given, names in nodemailer's spelling (`List-ID`). */
  headers?: Record<string, string>;
  attachments?: TestAttachment[];
}

/** The message as it travels (CRLF line ends, MIME with boundaries, encoded words as needed). */
export function buildRawMessage(fields: RawMessageFields): Promise<Buffer> {
  const composer = new MailComposer({
    from: fields.from,
    to: fields.to,
    cc: fields.cc,
    replyTo: fields.replyTo,
    subject: fields.subject,
    text: fields.text,
    html: fields.html,
    messageId: fields.messageId,
    inReplyTo: fields.inReplyTo,
    references: fields.references,
    date: fields.date ?? new Date(),
    headers: fields.headers,
    attachments: fields.attachments?.map((attachment) => ({
      filename: attachment.filename,
      content: attachment.content,
      contentType: attachment.contentType,
      contentDisposition: attachment.contentDisposition,
      cid: attachment.cid,
    })),
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((error, message) => (error ? reject(error) : resolve(message)));
  });
}
