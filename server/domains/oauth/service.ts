/**
 * OAuth applications (registered by administrators, one per provider) and the start of a member's
 * connection flow. The callback that finishes a flow is ./callback.ts.
 *
 * A flow: `start` stores an OAuthFlow row named by the SHA-256 of a random `state` (the state itself
 * only travels in the authorization URL), with a PKCE verifier sealed under `oauth-flow:<id>`, and
 * answers the provider's authorization URL with the S256 challenge. It lives 10 minutes and is used
 * once.
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { config } from '../../core/config';
import { requireEncryption, seal, secretHint } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { challengeOf, randomToken, stateHashOf } from './pkce';
import { presentOAuthApp, redirectUriOf } from './present';
import { clientIdMatches, isOAuthProvider, providerDefinition, scopesFor, supportsCapability, type Capability, type OAuthProvider } from './providers';
import { findApp, insertFlow, upsertApp } from './repo';
import type { PutOAuthAppInput } from './schemas';

export const flowLifetimeMs = 10 * 60 * 1000;

export function checkedProvider(value: string): OAuthProvider {
  if (!isOAuthProvider(value)) throw appError('oauth.unsupported_provider', { details: { provider: value.slice(0, 100) } });
  return value;
}

export async function getOAuthApp(providerValue: string) {
  const provider = checkedProvider(providerValue);
  return presentOAuthApp(provider, await findApp(provider));
}

export async function putOAuthApp(actor: AuthenticatedActor, input: PutOAuthAppInput, ip: string | null) {
  const provider = checkedProvider(input.provider);
  requireEncryption('oauth.encryption_disabled');
  if (!clientIdMatches(provider, input.clientId)) {
    throw appError('oauth.invalid_client_id', { details: { pattern: providerDefinition(provider).clientIdPattern } });
  }
  const secret = { clientSecretEnc: seal(input.clientSecret, `oauth-app:${provider}`), clientSecretHint: secretHint(input.clientSecret) };
  return db().$transaction(async (tx) => {
    const existing = await findApp(provider, tx);
    const status = input.status ?? existing?.status ?? 'active';
    const row = await upsertApp(tx, provider, { clientId: input.clientId, ...secret, status, updatedById: actor.member.id });
    // The client id only: never the secret, nor its hint.
    await recordAudit(
      auditByOf(actor),
      { action: 'oauth_app.registered', targetKind: 'oauth_app', targetId: provider, details: { provider, clientId: input.clientId, status }, ip },
      tx,
    );
    return presentOAuthApp(provider, row);
  });
}

/** Starts a member's connection: checks, stores the flow, answers the provider's authorization URL. */
export async function startOAuthFlow(actor: AuthenticatedActor, input: { provider: string; capability: Capability }) {
  const provider = checkedProvider(input.provider);
  if (!supportsCapability(provider, input.capability)) {
    throw appError('oauth.capability_not_supported', { details: { provider, capability: input.capability } });
  }
  requireEncryption('oauth.encryption_disabled');
  const app = await findApp(provider);
  if (!app || app.status !== 'active') throw appError('oauth.app_not_configured', { details: { provider } });

  const id = randomUUID();
  const state = randomToken();
  const verifier = randomToken();
  const expiresAt = new Date(Date.now() + flowLifetimeMs);
  await insertFlow({
    id,
    stateHash: stateHashOf(state),
    memberId: actor.member.id,
    provider,
    capability: input.capability,
    codeVerifierEnc: seal(verifier, `oauth-flow:${id}`),
    expiresAt,
  });

  const definition = providerDefinition(provider);
  const url = new URL(definition.endpoints(config()).authUrl);
  const params: Record<string, string> = {
    client_id: app.clientId,
    redirect_uri: redirectUriOf(provider),
    response_type: 'code',
    scope: scopesFor(provider, input.capability).join(' '),
    state,
    code_challenge: challengeOf(verifier),
    code_challenge_method: 'S256',
    ...definition.authorizationParams,
  };
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return { authorizationUrl: url.toString(), expiresAt: expiresAt.toISOString() };
}
