/**
 * The adapter for a mailbox's provider. One explicit switch (not a registry filled at import time),
 * so a provider without an adapter is a typed, visible gap. IMAP opens a connection; the
 * Gmail-compatible (`mail_provider_a`) and Graph-compatible (`mail_provider_b`) adapters are HTTP
 * clients whose access tokens come from the OAuth token store.
 */
import type { ImapAdapterOptions } from './imap/sync/adapter';
import { ImapAdapter } from './imap/sync/adapter';
import type { MailProviderAdapter } from './provider';
import { createGmailAdapter } from './providers/gmail/adapter';
import { createGraphAdapter } from './providers/graph/adapter';
import type { ProviderLimits } from './providers/limits';
import { oauthTokenSource, type OAuthTokenSource } from './providers/token-source';
import { SyncError } from './sync-errors';

/** Providers the runner keeps in sync (those with a case in `openAdapter`). */
export const syncedProviders: readonly string[] = ['imap'];

export interface AdapterMailbox {
  id: string;
  provider: string;
  address?: string;
  syncMode: string;
  settings: unknown;
  credential: { id: string; dataEnc: string } | null;
}

export interface OpenedAdapter {
  adapter: MailProviderAdapter;
  /** Secrets to keep out of any text shown or logged (a password, a token). */
  secrets: string[];
}

export interface OpenAdapterOptions extends ImapAdapterOptions {
  /** Access tokens of OAuth mailboxes; default: the process's installed source (providers/token-source.ts). */
  oauthTokens?: OAuthTokenSource;
  providerLimits?: Partial<ProviderLimits>;
}

export async function openAdapter(mailbox: AdapterMailbox, options: OpenAdapterOptions = {}): Promise<OpenedAdapter> {
  switch (mailbox.provider) {
    case 'imap': {
      const adapter = await ImapAdapter.open(mailbox, { ...options, syncMode: mailbox.syncMode === 'processing_only' ? 'processing_only' : 'full' });
      return { adapter, secrets: [adapter.secret] };
    }
    case 'mail_provider_a':
    case 'mail_provider_b': {
      const tokens = options.oauthTokens ?? oauthTokenSource();
      if (!tokens) throw new SyncError({ kind: 'internal', code: 'internal.error', message: 'This process has no OAuth token source installed.' });
      const credentialId = mailbox.credential?.id;
      if (!credentialId) throw new SyncError({ kind: 'auth', code: 'provider.auth_failed', message: 'The mailbox has no OAuth grant: connect it again.' });
      const create = mailbox.provider === 'mail_provider_a' ? createGmailAdapter : createGraphAdapter;
      const adapter = create({
        mailboxId: mailbox.id,
        address: mailbox.address ?? '',
        accessToken: (request) => tokens(credentialId, request),
        limits: options.providerLimits,
      });
      // The access token is never part of an error or log text the adapters write.
      return { adapter, secrets: [] };
    }
    default:
      throw new SyncError({ kind: 'protocol', code: 'mailbox.not_active', message: `No sync adapter for ${mailbox.provider} mailboxes yet.` });
  }
}
