/** An OAuth application's state as administrators see it: everything but the secret, even when nothing is registered. */
import { publicUrl } from '../../core/config';
import { iso } from '../../core/http/schemas';
import type { OAuthApp } from '../../generated/prisma/client';
import { allScopes, providerDefinition, scopesByCapability, type OAuthProvider } from './providers';
import type { OAuthAppOutput } from './schemas';

/** The callback registered at the provider: built from PUBLIC_URL, never from a request. */
export function redirectUriOf(provider: OAuthProvider): string {
  return `${publicUrl()}/api/v1/oauth/${provider}/callback`;
}

export function presentOAuthApp(provider: OAuthProvider, row: OAuthApp | null): OAuthAppOutput {
  const definition = providerDefinition(provider);
  return {
    provider,
    configured: row !== null,
    clientId: row?.clientId ?? null,
    hasSecret: Boolean(row?.clientSecretEnc),
    clientSecretHint: row?.clientSecretHint || null,
    status: row ? (row.status === 'disabled' ? 'disabled' : 'active') : null,
    redirectUri: redirectUriOf(provider),
    scopes: allScopes(provider),
    scopesByCapability: scopesByCapability(provider),
    clientIdPattern: definition.clientIdPattern,
    clientIdHint: definition.clientIdHint,
    updatedAt: row ? iso(row.updatedAt) : null,
  };
}
