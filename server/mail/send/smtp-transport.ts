/**
 * Sending for IMAP/SMTP mailboxes: the mailbox's SMTP server (settings and sealed password as the
 * mailboxes domain stores them, the host through the network guard, the same TLS rules as the probe),
 * one connection per send: connect, login, MAIL/RCPT/DATA with the message as a stream, QUIT. The
 * stream tells when the message data started to leave: a failure without a server reply after that
 * point is `unknown` (./errors.ts).
 *
 * Then (once the pipeline recorded the send: `followUp`) the sent copy (with its Bcc) is appended to the folder with role `sent`, flagged \Seen. A failed
 * append is a warning in the journal, never a failed send: the message is gone already.
 */
import { Readable } from 'node:stream';
import { ImapFlow } from 'imapflow';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import { db } from '../../core/db';
import { allowPrivateHosts, type ResolvedAddress } from '../../core/net/network-guard';
import { imapConnectionOptions, resolveMailServer, smtpTransportOptions, type MailTimeouts } from '../connection-options';
import { imapSettingsOf, openImapPassword } from '../imap/mailbox-settings';
import { withDeadline } from '../with-deadline';
import { classifySmtpSendError, SendError } from './errors';
import type { SendResult, TransportMailbox, OutgoingMessage } from './transport-types';

export interface SmtpSendOptions {
  allowPrivate?: boolean;
  timeouts?: MailTimeouts;
  /** Skip the Sent copy (bench of the bare send path). */
  skipSentCopy?: boolean;
}

/** A callback call as a promise; the first of its answers wins. */
function call<T>(run: (done: (error: Error | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    run((error, value) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(value as T);
    });
  });
}

export async function sendSmtp(mailbox: TransportMailbox, message: OutgoingMessage, options: SmtpSendOptions = {}): Promise<SendResult> {
  if (!mailbox.credential) throw new SendError({ outcome: 'retry', kind: 'auth', message: 'The mailbox has no stored password: connect it again.' });
  const settings = imapSettingsOf(mailbox);
  const password = openImapPassword(mailbox.credential);
  const allowPrivate = options.allowPrivate ?? allowPrivateHosts();
  const endpoint = { host: settings.smtpHost, port: settings.smtpPort, secure: settings.smtpSecure, allowInvalidCertificate: settings.allowInvalidCertificate };
  const credentials = { username: settings.username, password };
  let resolved: ResolvedAddress | null = null;
  let handedOver = false;
  let connection: SMTPConnection | null = null;
  const hide = () => [password, resolved?.address];
  try {
    resolved = await resolveMailServer(settings.smtpHost, { allowPrivate });
    const transportOptions = smtpTransportOptions(endpoint, credentials, resolved, options.timeouts);
    const smtp = new SMTPConnection({
      host: transportOptions.host,
      port: transportOptions.port,
      secure: transportOptions.secure,
      servername: transportOptions.servername,
      tls: transportOptions.tls,
      connectionTimeout: transportOptions.connectionTimeout,
      greetingTimeout: transportOptions.greetingTimeout,
      socketTimeout: transportOptions.socketTimeout,
      logger: false,
      debug: false,
    });
    connection = smtp;
    // Connection failures arrive as 'error' events (connect's callback runs on success only); a late
    // one after the send settled must not crash the process.
    let failed: ((error: Error) => void) | null = null;
    smtp.on('error', (error: Error) => failed?.(error));
    const step = <T>(run: (done: (error: Error | null, value?: T) => void) => void) =>
      call<T>((done) => {
        failed = (error) => done(error);
        run(done);
      });
    await step<void>((done) => smtp.connect(() => done(null)));
    await step<boolean>((done) => smtp.login({ user: credentials.username, pass: password }, (error, ok) => done(error ?? null, ok)));
    const raw = message.raw;
    let offset = 0;
    const stream = new Readable({
      read() {
        // Read only after the server answered DATA with 354: from here the message is leaving.
        handedOver = true;
        if (offset >= raw.length) {
          this.push(null);
          return;
        }
        const chunk = raw.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        this.push(chunk);
      },
    });
    const info = await step<SMTPConnection.SentMessageInfo>((done) =>
      smtp.send({ from: message.from, to: message.recipients, size: raw.length }, stream, (error, value) => done(error ?? null, value)),
    );
    try {
      smtp.quit();
    } catch {
      // closing only
    }
    connection = null;
    const warnings: string[] = [];
    if (info.rejected.length > 0) warnings.push(`The server refused ${info.rejected.length} of ${message.recipients.length} recipients: ${info.rejected.slice(0, 10).join(', ')}`);
    // The copy is saved after the send is recorded (a crash in between leaves a `done` item without
    // its copy rather than an `unknown` one).
    const followUp = options.skipSentCopy ? undefined : () => appendSentCopy(mailbox, message.sentCopy, { allowPrivate, timeouts: options.timeouts, password });
    return { followUp, providerMessageId: info.serverMessageId ?? (info.response ? /queued as ([A-Za-z0-9._-]{1,100})/i.exec(info.response)?.[1] : undefined) ?? null, warnings };
  } catch (error) {
    throw new SendError(classifySmtpSendError(error, { handedOver, hide: hide() }), { cause: error });
  } finally {
    try {
      connection?.close();
    } catch {
      // already closed
    }
  }
}

/** Appends the sent copy to the mailbox's `sent` folder (\Seen); answers a warning or null. */
export async function appendSentCopy(
  mailbox: TransportMailbox,
  raw: Buffer,
  options: { allowPrivate: boolean; timeouts?: MailTimeouts; password: string },
): Promise<string | null> {
  const folder = await db().mailFolder.findFirst({ where: { mailboxId: mailbox.id, role: 'sent', selectable: true }, select: { key: true } });
  if (!folder) return 'No Sent folder is known for this mailbox; no copy was saved.';
  const settings = imapSettingsOf(mailbox);
  let client: ImapFlow | null = null;
  try {
    await withDeadline(
      (async () => {
        const resolved = await resolveMailServer(settings.imapHost, { allowPrivate: options.allowPrivate });
        client = new ImapFlow(
          imapConnectionOptions(
            { host: settings.imapHost, port: settings.imapPort, secure: settings.imapSecure, allowInvalidCertificate: settings.allowInvalidCertificate },
            { username: settings.username, password: options.password },
            resolved,
            options.timeouts,
          ),
        );
        client.on('error', () => {});
        await client.connect();
        await client.append(folder.key, raw, ['\\Seen'], new Date());
        await client.logout();
      })(),
      60_000,
      () => (client as ImapFlow | null)?.close(),
      () => new Error('append timeout'),
    );
    return null;
  } catch {
    (client as ImapFlow | null)?.close();
    return 'The message was sent, but its copy could not be saved in the Sent folder.';
  }
}
