/**
 * The adapter for a mailbox's provider. One explicit switch (not a registry filled at import time),
 * so a provider without an adapter is a typed, visible gap: the Gmail-compatible (`mail_provider_a`)
 * and Graph-compatible (`mail_provider_b`) adapters add their case here.
 */
import type { ImapAdapterOptions } from './imap/sync/adapter';
import { ImapAdapter } from './imap/sync/adapter';
import type { MailProviderAdapter } from './provider';
import { SyncError } from './sync-errors';

/** Providers the runner keeps in sync (those with a case in `openAdapter`). */
export const syncedProviders: readonly string[] = ['imap'];

export interface AdapterMailbox {
  id: string;
  provider: string;
  syncMode: string;
  settings: unknown;
  credential: { id: string; dataEnc: string } | null;
}

export interface OpenedAdapter {
  adapter: MailProviderAdapter;
  /** Secrets to keep out of any text shown or logged (a password, a token). */
  secrets: string[];
}

export async function openAdapter(mailbox: AdapterMailbox, options: ImapAdapterOptions = {}): Promise<OpenedAdapter> {
  switch (mailbox.provider) {
    case 'imap': {
      const adapter = await ImapAdapter.open(mailbox, { ...options, syncMode: mailbox.syncMode === 'processing_only' ? 'processing_only' : 'full' });
      return { adapter, secrets: [adapter.secret] };
    }
    default:
      throw new SyncError({ kind: 'protocol', code: 'mailbox.not_active', message: `No sync adapter for ${mailbox.provider} mailboxes yet.` });
  }
}
