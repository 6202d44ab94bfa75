/**
 * Finishes a connection flow when the provider sends the member's browser back
 * (`GET /api/v1/oauth/{provider}/callback?code&state`).
 *
 * Who may finish it: the browser must carry the session of the member who started the flow (the
 * session cookie is SameSite=Lax, so it travels on this top-level navigation from the provider), AND
 * the `state` of that flow. The state alone would let anyone who obtained a link finish another
 * member's flow with their own account (login CSRF into a victim's mailbox list); the session alone
 * would accept any code. The state is compared by its SHA-256, is single-use (marked used before the
 * code is exchanged, so a replay fails even if the exchange does) and expires after 10 minutes.
 *
 * Then: the code is exchanged with the PKCE verifier, the granted scopes are checked, the account's
 * address is read, and in one transaction the grant is stored (./grants.ts) and, for `mail`, the
 * mailbox is created or reconnected with its first sync queued (mailboxes service, `connectOAuthMailbox`).
 *
 * The outcome is a redirect to the app's page, `?connected=<provider>` or `?error=<code>`: the member
 * is in a browser, not a program.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { publicUrl } from '../../core/config';
import { open } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { appError, isAppError, type AppError } from '../../core/errors/app-error';
import { log } from '../../core/log';
import { connectOAuthMailbox } from '../mailboxes';
import { storeGrant } from './grants';
import { stateHashOf } from './pkce';
import { redirectUriOf } from './present';
import { accountAddress, exchangeCode, ProviderCallError } from './provider-client';
import { capabilities, isOAuthProvider, missingScopes, providerDefinition, returnPageOf, scopesFor, type Capability, type OAuthProvider } from './providers';
import { activeClient, findFlowByStateHash, markFlowUsed } from './repo';
import type { CallbackQuery } from './schemas';

export interface CallbackOutcome {
  /** Absolute URL of the app page to send the browser to. */
  location: string;
  /** The error code carried by the redirect, or null on success. */
  error: string | null;
}

interface ClaimedFlow {
  id: string;
  provider: OAuthProvider;
  capability: Capability;
  codeVerifierEnc: string;
}

function isCapability(value: string): value is Capability {
  return (capabilities as readonly string[]).includes(value);
}

/** Finds the flow this state names for this member and marks it used, once; anything else is `oauth.state_invalid`. */
async function claimFlow(memberId: string, provider: OAuthProvider, state: string | undefined): Promise<ClaimedFlow> {
  if (!state) throw appError('oauth.state_invalid');
  const flow = await findFlowByStateHash(stateHashOf(state));
  // Another member's flow is answered like an unknown one.
  if (!flow || flow.memberId !== memberId || flow.provider !== provider || !isCapability(flow.capability)) throw appError('oauth.state_invalid');
  const now = new Date();
  const { count } = await markFlowUsed(flow.id, now);
  if (count !== 1) throw appError('oauth.state_invalid');
  return { id: flow.id, provider, capability: flow.capability, codeVerifierEnc: flow.codeVerifierEnc };
}

/** A provider failure as the redirect's code; the log line holds the status and the provider's error code, never a token. */
function exchangeFailure(error: unknown, step: string, provider: OAuthProvider): AppError {
  if (error instanceof ProviderCallError) {
    log.warn({ provider, step, status: error.status, oauthError: error.oauthError }, 'OAuth callback: the provider refused or failed');
    return appError('oauth.exchange_failed', { details: { step, status: error.status, providerError: error.oauthError } });
  }
  throw error;
}

async function finish(actor: AuthenticatedActor, provider: OAuthProvider, flow: ClaimedFlow, query: CallbackQuery, ip: string | null) {
  // The member refused at the provider, or the provider could not ask them.
  if (query.error !== undefined) throw appError('oauth.access_denied', { details: { providerError: query.error.slice(0, 100) } });
  if (!query.code) throw appError('request.bad_request', { message: 'The provider sent neither a code nor an error.' });
  const client = await activeClient(provider);
  if (!client) throw appError('oauth.app_not_configured');

  const scopes = scopesFor(provider, flow.capability);
  const verifier = open(flow.codeVerifierEnc, `oauth-flow:${flow.id}`);
  const tokens = await exchangeCode(provider, client, { code: query.code, verifier, redirectUri: redirectUriOf(provider), scopes }).catch((error: unknown) => {
    throw exchangeFailure(error, 'token', provider);
  });
  const missing = missingScopes(provider, flow.capability, tokens.scopes);
  if (missing.length > 0) throw appError('oauth.scope_missing', { details: { missing } });
  const address = await accountAddress(provider, tokens.accessToken).catch((error: unknown) => {
    throw exchangeFailure(error, 'account', provider);
  });

  const definition = providerDefinition(provider);
  return db().$transaction(async (tx) => {
    const grant = await storeGrant(tx, { memberId: actor.member.id, provider, accountEmail: address, capability: flow.capability, tokens, requestedScopes: scopes });
    const mailbox =
      flow.capability === 'mail'
        ? await connectOAuthMailbox({ memberId: actor.member.id, provider: definition.mailboxProvider, address, credentialId: grant.credentialId }, tx)
        : null;
    await recordAudit(
      auditByOf(actor),
      {
        action: 'oauth.account_connected',
        targetKind: 'credential',
        targetId: grant.credentialId,
        details: { provider, accountEmail: address, capability: flow.capability, capabilities: grant.capabilities, mailboxId: mailbox?.mailboxId ?? null },
        ip,
      },
      tx,
    );
    return { mailbox };
  });
}

function pageUrl(capability: Capability | null, parameter: 'connected' | 'error', value: string): string {
  return `${publicUrl()}${returnPageOf(capability)}?${new URLSearchParams({ [parameter]: value }).toString()}`;
}

/** Runs the callback; every expected failure becomes the redirect's `?error=<code>`. */
export async function completeOAuthFlow(actor: AuthenticatedActor, providerValue: string, query: CallbackQuery, ip: string | null): Promise<CallbackOutcome> {
  let capability: Capability | null = null;
  try {
    if (!isOAuthProvider(providerValue)) throw appError('oauth.unsupported_provider');
    const flow = await claimFlow(actor.member.id, providerValue, query.state);
    capability = flow.capability;
    await finish(actor, providerValue, flow, query, ip);
    return { location: pageUrl(capability, 'connected', providerValue), error: null };
  } catch (error) {
    if (!isAppError(error)) throw error;
    return { location: pageUrl(capability, 'error', error.code), error: error.code };
  }
}
