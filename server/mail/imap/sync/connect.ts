/**
 * Opens the sync's IMAP connection for a mailbox: stored settings and sealed password
 * (../mailbox-settings.ts), the network guard, the shared connection options (../../connection-options.ts)
 * with QRESYNC/CONDSTORE enabled, literal and response sizes bounded, and no log of the conversation.
 */
import { ImapFlow, type ImapFlowOptions } from 'imapflow';
import { allowPrivateHosts } from '../../../core/net/network-guard';
import { imapConnectionOptions, resolveMailServer } from '../../connection-options';
import { SyncError } from '../../sync-errors';
import { imapSettingsOf, openImapPassword } from '../mailbox-settings';

export interface ImapMailboxSource {
  id: string;
  settings: unknown;
  credential: { id: string; dataEnc: string } | null;
}

/** Largest message source fetched whole; larger ones are fetched up to this and completed on demand. */
export const fullFetchBytes = 25 * 1024 * 1024;

export interface OpenedImap {
  client: ImapFlow;
  /** The password, for redacting it from any text we might show. */
  secret: string;
}

export async function openImapClient(mailbox: ImapMailboxSource, overrides: Partial<ImapFlowOptions> = {}): Promise<OpenedImap> {
  let settings;
  try {
    settings = imapSettingsOf(mailbox);
  } catch {
    throw new SyncError({ kind: 'auth', code: 'imap.auth_failed', message: 'The mailbox has no usable connection settings; connect it again.' });
  }
  if (!mailbox.credential) {
    throw new SyncError({ kind: 'auth', code: 'imap.auth_failed', message: 'The mailbox has no stored password; connect it again.' });
  }
  let password: string;
  try {
    password = openImapPassword(mailbox.credential);
  } catch {
    throw new SyncError({ kind: 'auth', code: 'imap.auth_failed', message: 'The stored password cannot be opened (instance key changed?); connect the mailbox again.' });
  }
  const endpoint = { host: settings.imapHost, port: settings.imapPort, secure: settings.imapSecure, allowInvalidCertificate: settings.allowInvalidCertificate };
  const resolved = await resolveMailServer(settings.imapHost, { allowPrivate: allowPrivateHosts() });
  const client = new ImapFlow(
    imapConnectionOptions(
      endpoint,
      { username: settings.username, password },
      resolved,
      { socketMs: 5 * 60_000 },
      {
        qresync: true,
        clientInfo: { name: 'mailflow' },
        maxLiteralSize: fullFetchBytes + 1024 * 1024,
        maxResponseSize: 2 * fullFetchBytes,
        maxIdleTime: 4 * 60_000,
        ...overrides,
      },
    ),
  );
  // Failures surface through the pending command; an 'error' event without a listener would end the process.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    client.close();
    throw error;
  }
  return { client, secret: password };
}

export async function closeImap(client: ImapFlow): Promise<void> {
  if (!client.usable) {
    client.close();
    return;
  }
  try {
    await Promise.race([client.logout(), new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
  } catch {
    // closing anyway
  }
  client.close();
}
