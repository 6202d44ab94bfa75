/**
 * A real SMTP peer for tests (npm `smtp-server`): AUTH PLAIN/LOGIN required, on a free 127.0.0.1 port,
 * recording every accepted message (envelope and raw bytes) for assertions.
 *
 * `tls`: `none` (plain, no STARTTLS offered), `starttls` (plain port offering STARTTLS with a
 * self-signed certificate; AUTH only after it), `implicit` (TLS from the first byte, like port 465).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { MailUser } from './dovecot';
import { createSelfSignedCert } from './self-signed-cert';

export type SmtpTlsMode = 'none' | 'starttls' | 'implicit';

export interface SmtpServerOptions {
  users: MailUser[];
  /** Default `none`. */
  tls?: SmtpTlsMode;
  /** Largest message accepted, in bytes (announced with SIZE). Default 30 MB. */
  maxMessageBytes?: number;
}

export interface ReceivedMessage {
  /** The authenticated user who sent it. */
  user: string;
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  receivedAt: Date;
}

export interface TestSmtpServer {
  host: '127.0.0.1';
  port: number;
  tls: SmtpTlsMode;
  /** Whether a client should connect with `secure: true` (implicit TLS). */
  secure: boolean;
  /** The certificate presented in `starttls` and `implicit` modes; null in `none`. */
  certPem: string | null;
  /** Messages accepted so far, in arrival order. */
  messages: ReceivedMessage[];
  /** Failed logins so far (user names only). */
  failedLogins: string[];
  /** Adds a user or replaces their password. */
  addUser(user: MailUser): void;
  /** Resolves when at least `count` messages were accepted, or rejects after `timeoutMs` (default 10 s). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  stop(): Promise<void>;
}

const host = '127.0.0.1';

export async function startSmtpServer(options: SmtpServerOptions): Promise<TestSmtpServer> {
  const mode = options.tls ?? 'none';
  const maxBytes = options.maxMessageBytes ?? 30 * 1024 * 1024;
  const passwords = new Map(options.users.map((user) => [user.user, user.password]));
  const messages: ReceivedMessage[] = [];
  const failedLogins: string[] = [];
  const waiters = new Set<() => void>();

  const certDir = mode === 'none' ? null : await mkdtemp(path.join(tmpdir(), 'mailflow-smtp-'));
  const cert = certDir ? await createSelfSignedCert(certDir) : null;

  const serverOptions: SMTPServerOptions = {
    secure: mode === 'implicit',
    key: cert?.keyPem,
    cert: cert?.certPem,
    name: 'localhost',
    banner: 'mailflow test SMTP',
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    // Without TLS there is nothing to wait for; with STARTTLS, AUTH only after the upgrade.
    allowInsecureAuth: mode === 'none',
    disabledCommands: mode === 'none' ? ['STARTTLS'] : [],
    size: maxBytes,
    logger: false,
    closeTimeout: 1_000,
    onAuth(auth, _session, callback) {
      const expected = auth.username === undefined ? undefined : passwords.get(auth.username);
      if (auth.username !== undefined && expected !== undefined && auth.password === expected) {
        callback(null, { user: auth.username });
        return;
      }
      failedLogins.push(auth.username ?? '');
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        if ((stream as unknown as { sizeExceeded?: boolean }).sizeExceeded) {
          callback(Object.assign(new Error('Message exceeds the size limit'), { responseCode: 552 }));
          return;
        }
        messages.push({
          user: String(session.user ?? ''),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks),
          receivedAt: new Date(),
        });
        for (const wake of waiters) wake();
        callback(null, 'Message accepted');
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  // A client aborting a TLS handshake (as the tls_failed probe does) would otherwise crash the process.
  server.on('error', () => {});

  const port = await new Promise<number>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.server.once('error', onError);
    server.listen(0, host, () => {
      server.server.off('error', onError);
      resolve((server.server.address() as { port: number }).port);
    });
  });

  let stopped: Promise<void> | null = null;
  return {
    host,
    port,
    tls: mode,
    secure: mode === 'implicit',
    certPem: cert?.certPem ?? null,
    messages,
    failedLogins,
    addUser(user) {
      passwords.set(user.user, user.password);
    },
    waitForMessages(count, timeoutMs = 10_000) {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const wake = () => {
          if (messages.length < count) return;
          cleanup();
          resolve(messages.slice());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`SMTP test server: ${messages.length} of ${count} messages after ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
      });
    },
    stop() {
      stopped ??= (async () => {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        if (certDir) await rm(certDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
