/**
 * Access tokens for the provider adapters (Gmail-compatible and Graph-compatible sync, later
 * integration nodes): `getAccessToken(credentialId)` answers a token valid for at least a minute,
 * refreshing it with the grant's refresh token when it is about to expire and storing the new tokens.
 *
 * Failures are typed so callers can decide without reading messages:
 * - `auth`: the grant no longer works (refresh token revoked or expired: `invalid_grant`; no refresh
 *   token): the member must connect again; a mailbox moves to `error` with `lastError.kind` `auth`.
 * - `config`: the instance's application is missing, disabled or refused (`invalid_client`).
 * - `transient`: the provider did not answer, rate-limited or failed: retry later.
 *
 * Two processes refreshing the same grant at once both get a valid token; the first to store wins
 * (a conditional update on `updatedAt`), the other's token stays valid until it expires.
 */
import { openGrant, sealGrant } from './grants';
import { ProviderCallError, refreshTokens } from './provider-client';
import { capabilities, providerOfGrantType, scopesFor, type OAuthProvider } from './providers';
import { activeClient, findGrantRow, updateGrantDataIfUnchanged } from './repo';

/** A token closer than this to its expiry is refreshed first. */
export const refreshMarginMs = 60_000;

export type OAuthTokenFailure = 'auth' | 'config' | 'transient';

export class OAuthTokenError extends Error {
  constructor(
    readonly kind: OAuthTokenFailure,
    /** `invalid_grant`, `no_refresh_token`, `not_an_oauth_grant`, `app_not_configured`, `invalid_client`, `provider_unavailable`… */
    readonly code: string,
    message: string,
    readonly httpStatus: number | null = null,
  ) {
    super(message);
    this.name = 'OAuthTokenError';
  }
}

export interface AccessToken {
  accessToken: string;
  expiresAt: Date;
  provider: OAuthProvider;
}

function failureOf(error: ProviderCallError): OAuthTokenError {
  if (error.oauthError === 'invalid_grant') return new OAuthTokenError('auth', 'invalid_grant', 'The grant was revoked or expired: connect the account again.', error.status);
  if (error.oauthError === 'invalid_client' || error.oauthError === 'unauthorized_client') {
    return new OAuthTokenError('config', error.oauthError, 'The provider refused the instance’s OAuth application.', error.status);
  }
  if (error.transient) return new OAuthTokenError('transient', 'provider_unavailable', 'The provider did not answer the token refresh; try again later.', error.status);
  return new OAuthTokenError('auth', error.oauthError ?? 'refresh_refused', 'The provider refused the token refresh.', error.status);
}

/** What the grant's capabilities asked for (provider B wants the scopes again on a refresh). */
function grantedScopes(provider: OAuthProvider, granted: readonly string[]): string[] {
  const scopes = capabilities.filter((capability) => granted.includes(capability)).flatMap((capability) => scopesFor(provider, capability));
  return [...new Set(scopes)];
}

/** An access token for a grant, refreshed when it expires within the margin, or at once with `forceRefresh` (the provider refused it). */
export async function getAccessToken(credentialId: string, options: { now?: Date; forceRefresh?: boolean } = {}): Promise<AccessToken> {
  const now = options.now ?? new Date();
  const row = await findGrantRow(credentialId);
  const provider = row ? providerOfGrantType(row.type) : null;
  if (!row || !provider) throw new OAuthTokenError('config', 'not_an_oauth_grant', 'No OAuth grant has this id.');
  const secret = openGrant(row.id, row.dataEnc);
  const expiresAt = new Date(secret.expiresAt);
  if (!options.forceRefresh && expiresAt.getTime() - now.getTime() > refreshMarginMs) return { accessToken: secret.accessToken, expiresAt, provider };

  if (!secret.refreshToken) throw new OAuthTokenError('auth', 'no_refresh_token', 'The grant has no refresh token: connect the account again.');
  const client = await activeClient(provider);
  if (!client) throw new OAuthTokenError('config', 'app_not_configured', 'No active OAuth application is registered for this provider.');

  let tokens;
  try {
    tokens = await refreshTokens(provider, client, secret.refreshToken, grantedScopes(provider, row.capabilities));
  } catch (error) {
    if (error instanceof ProviderCallError) throw failureOf(error);
    throw error;
  }
  const refreshed = {
    accessToken: tokens.accessToken,
    // Provider B rotates refresh tokens; provider A sends none and the old one stays.
    refreshToken: tokens.refreshToken ?? secret.refreshToken,
    expiresAt: tokens.expiresAt.toISOString(),
    tokenType: tokens.tokenType,
  };
  await updateGrantDataIfUnchanged(row.id, row.updatedAt, sealGrant(row.id, refreshed));
  return { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt, provider };
}

/** The token source the mail provider adapters use (installed by the runner and the web server at start). */
export function mailTokenSource(credentialId: string, options?: { forceRefresh?: boolean }): Promise<string> {
  return getAccessToken(credentialId, { forceRefresh: options?.forceRefresh }).then((token) => token.accessToken);
}
