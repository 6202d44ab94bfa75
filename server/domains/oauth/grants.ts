/**
 * OAuth grants: one Credential per member, provider and account (type `mail_provider_a_oauth` /
 * `mail_provider_b_oauth`, `accountEmail` the account's address). A later consent for the same account
 * merges into it: capabilities and scopes add up, the tokens are replaced (the refresh token is kept
 * when the provider sends none). The tokens are sealed under `credential:<id>`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { openJson, sealJson } from '../../core/crypto/secret-box';
import type { Tx } from '../../core/db';
import type { TokenSet } from './provider-client';
import { providerDefinition, type Capability, type OAuthProvider } from './providers';
import { findMemberGrant, insertGrant, lockGrant, updateGrant } from './repo';

/** What a grant's sealed secret holds. */
export const grantSecret = z.object({
  accessToken: z.string(),
  refreshToken: z.string().nullable(),
  expiresAt: z.iso.datetime(),
  tokenType: z.string(),
});

export type GrantSecret = z.infer<typeof grantSecret>;

export function sealGrant(credentialId: string, secret: GrantSecret): string {
  return sealJson(secret, `credential:${credentialId}`);
}

export function openGrant(credentialId: string, sealed: string): GrantSecret {
  return grantSecret.parse(openJson(sealed, `credential:${credentialId}`));
}

function secretOf(tokens: TokenSet, keptRefreshToken: string | null): GrantSecret {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken ?? keptRefreshToken,
    expiresAt: tokens.expiresAt.toISOString(),
    tokenType: tokens.tokenType,
  };
}

/** The stored refresh token, or null when the old secret no longer opens (sealed under a key since dropped). */
function previousRefreshToken(credentialId: string, sealed: string): string | null {
  try {
    return openGrant(credentialId, sealed).refreshToken;
  } catch {
    return null;
  }
}

export interface GrantInput {
  memberId: string;
  provider: OAuthProvider;
  accountEmail: string;
  capability: Capability;
  tokens: TokenSet;
  /** What the flow asked for, recorded when the provider's answer does not list the granted scopes. */
  requestedScopes: string[];
}

/** Creates or merges the grant; returns its id and whether it is new. Call inside a transaction. */
export async function storeGrant(tx: Tx, input: GrantInput): Promise<{ credentialId: string; created: boolean; capabilities: string[] }> {
  const type = providerDefinition(input.provider).grantType;
  // Two callbacks for the same account at once must meet on one row: serialise them.
  await lockGrant(tx, input.memberId, type, input.accountEmail);
  const granted = input.tokens.scopes ?? input.requestedScopes;
  const existing = await findMemberGrant(tx, input.memberId, type, input.accountEmail);
  if (existing) {
    const previous = previousRefreshToken(existing.id, existing.dataEnc);
    const capabilities = [...new Set([...existing.capabilities, input.capability])];
    await updateGrant(tx, existing.id, {
      capabilities,
      oauthScopes: [...new Set([...existing.oauthScopes, ...granted])],
      dataEnc: sealGrant(existing.id, secretOf(input.tokens, previous)),
    });
    return { credentialId: existing.id, created: false, capabilities };
  }
  const id = randomUUID();
  await insertGrant(tx, {
    id,
    memberId: input.memberId,
    scope: 'member',
    type,
    name: input.accountEmail,
    accountEmail: input.accountEmail,
    capabilities: [input.capability],
    oauthScopes: [...new Set(granted)],
    dataEnc: sealGrant(id, secretOf(input.tokens, null)),
  });
  return { credentialId: id, created: true, capabilities: [input.capability] };
}
