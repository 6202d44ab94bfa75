/**
 * One small interface for handing a built message to a mailbox's provider, one case per provider:
 *
 * - `imap`: SMTP with the mailbox's settings, then the Sent copy appended over IMAP (./smtp-transport.ts).
 * - `mail_provider_a` (Gmail API shape): `POST users/me/messages/send {raw: base64url MIME, threadId?}`;
 *   the provider files the copy in SENT itself and strips Bcc from what it delivers.
 * - `mail_provider_b` (Graph shape): `POST /me/sendMail` with the MIME as base64 `text/plain`; the copy
 *   lands in Sent Items. Graph answers 202 with no id: the Message-ID stands for it.
 *
 * Every failure is a SendError whose outcome says whether anything can have been delivered.
 */
import { config } from '../../core/config';
import { ProviderHttp, type ProviderFetch } from '../providers/http-client';
import { accountBudget, accountSlots } from '../providers/call-budget';
import { gmailErrorReasons, gmailQuotaUnits } from '../providers/gmail/api';
import { graphErrorReasons, immutableIds } from '../providers/graph/api';
import { oauthTokenSource, type OAuthTokenSource } from '../providers/token-source';
import type { MailTimeouts } from '../connection-options';
import { classifyProviderSendError, SendError } from './errors';
import { sendSmtp } from './smtp-transport';
import type { OutgoingMessage, SendResult, TransportMailbox } from './transport-types';

export type { OutgoingMessage, SendResult, TransportMailbox } from './transport-types';

export interface TransportOptions {
  allowPrivate?: boolean;
  timeouts?: MailTimeouts;
  /** OAuth access tokens (default: the process's installed source). */
  oauthTokens?: OAuthTokenSource;
  /** Provider API roots (default: MAIL_PROVIDER_A_API_URL / MAIL_PROVIDER_B_API_URL). */
  providerBaseUrl?: { a?: string; b?: string };
  fetch?: ProviderFetch;
  skipSentCopy?: boolean;
}

/** Longest a provider's send call may take (the message goes up in one request). */
const providerSendTimeoutMs = 120_000;

export async function sendThroughMailbox(mailbox: TransportMailbox, message: OutgoingMessage, options: TransportOptions = {}): Promise<SendResult> {
  switch (mailbox.provider) {
    case 'imap':
      return sendSmtp(mailbox, message, options);
    case 'mail_provider_a':
    case 'mail_provider_b':
      return sendProvider(mailbox, message, options);
    default:
      throw new SendError({ outcome: 'failed', kind: 'internal', message: 'This kind of mailbox cannot send.' });
  }
}

async function sendProvider(mailbox: TransportMailbox, message: OutgoingMessage, options: TransportOptions): Promise<SendResult> {
  const tokens = options.oauthTokens ?? oauthTokenSource();
  if (!tokens) throw new SendError({ outcome: 'retry', kind: 'internal', message: 'This process cannot reach the mailbox\'s authorisation.' });
  const credentialId = mailbox.credential?.id;
  if (!credentialId) throw new SendError({ outcome: 'retry', kind: 'auth', message: 'The mailbox has no authorisation: connect it again.' });
  const gmail = mailbox.provider === 'mail_provider_a';
  const provider = gmail ? 'mail_provider_a' : 'mail_provider_b';
  const account = { address: mailbox.address, mailboxId: mailbox.id };
  const http = new ProviderHttp({
    baseUrl: gmail ? (options.providerBaseUrl?.a ?? config().MAIL_PROVIDER_A_API_URL) : (options.providerBaseUrl?.b ?? config().MAIL_PROVIDER_B_API_URL),
    accessToken: (request) => tokens(credentialId, request),
    fetch: options.fetch,
    allowPrivate: options.allowPrivate,
    timeoutMs: providerSendTimeoutMs,
    headers: gmail ? undefined : { prefer: immutableIds },
    errorReasons: gmail ? gmailErrorReasons : graphErrorReasons,
    // A send spends the account's quota like the sync does (a Gmail send costs 100 units), and holds one of
    // its concurrent requests (Graph) beside the runner syncing it.
    budget: accountBudget(provider, account),
    slots: accountSlots(provider, account),
    costOf: gmail ? gmailQuotaUnits : undefined,
  });
  try {
    if (gmail) {
      const answer = await http.json<{ id?: unknown }>('/users/me/messages/send', {
        method: 'POST',
        json: { raw: message.sentCopy.toString('base64url'), ...(message.providerThreadId ? { threadId: message.providerThreadId } : {}) },
        maxBytes: 64 * 1024,
      });
      return { providerMessageId: typeof answer.id === 'string' ? answer.id.slice(0, 200) : null, warnings: [] };
    }
    await http.request('/me/sendMail', { method: 'POST', text: { body: message.sentCopy.toString('base64'), contentType: 'text/plain' }, maxBytes: 64 * 1024 });
    return { providerMessageId: message.messageIdHeader, warnings: [] };
  } catch (error) {
    throw new SendError(classifyProviderSendError(error), { cause: error });
  }
}
