/**
 * The HTTP side of OAuth, in the providers' wire formats: the token endpoint (authorization code and
 * refresh token grants, `application/x-www-form-urlencoded` in, JSON out, RFC 6749 errors
 * `{error, error_description}`) and the account lookup (provider A's userinfo `email`, provider B's
 * `/v1.0/me` `mail` or `userPrincipalName`).
 *
 * Every call has a time budget and reads at most a bounded answer. Nothing here logs or returns a
 * token or a secret in an error: a failure carries the HTTP status and the provider's error code only.
 */
import { z } from 'zod';
import { config } from '../../core/config';
import { providerFetch, type ProviderRequest } from './provider-fetch';
import { providerDefinition, type OAuthProvider } from './providers';

const timeoutMs = 15_000;
const maxAnswerBytes = 256 * 1024;

/** A refused or failed provider call. `oauthError` is the RFC 6749 `error` (`invalid_grant`…) when there was one. */
export class ProviderCallError extends Error {
  constructor(
    readonly status: number | null,
    readonly oauthError: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }

  /** Worth retrying later: no answer, rate limited, or the provider's own failure. */
  get transient(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
  tokenType: string;
  /** Granted scopes as the provider listed them; null when the answer did not say. */
  scopes: string[] | null;
}

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1).max(16_384),
  token_type: z.string().max(64).default('Bearer'),
  expires_in: z.coerce.number().int().positive().max(10 * 365 * 24 * 3600).optional(),
  refresh_token: z.string().min(1).max(16_384).optional(),
  scope: z.string().max(8_192).optional(),
});

const errorAnswer = z.object({ error: z.string().max(200) });

type ProviderResponse = Awaited<ReturnType<typeof providerFetch>>;

async function readBounded(response: ProviderResponse): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxAnswerBytes) {
      await reader.cancel();
      throw new ProviderCallError(response.status, null, `the provider's answer exceeds ${maxAnswerBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One call, bounded in time and size, answered as parsed JSON (or null when the body is not JSON). */
async function callJson(url: string, init: Omit<ProviderRequest, 'signal'>): Promise<{ status: number; json: unknown }> {
  let response: ProviderResponse;
  try {
    response = await providerFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    // The guard's refusals carry a reason safe to log (never the resolved address); others only their name.
    const reason = (error as { reason?: unknown }).reason;
    throw new ProviderCallError(null, null, `the provider could not be reached (${typeof reason === 'string' ? reason : (error as Error).name})`);
  }
  const text = await readBounded(response);
  try {
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    return { status: response.status, json: null };
  }
}

async function tokenRequest(provider: OAuthProvider, form: Record<string, string>): Promise<TokenSet> {
  const { tokenUrl } = providerDefinition(provider).endpoints(config());
  const { status, json } = await callJson(tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  if (status !== 200) {
    const error = errorAnswer.safeParse(json);
    throw new ProviderCallError(status, error.success ? error.data.error : null, `the token endpoint answered ${status}${error.success ? ` ${error.data.error}` : ''}`);
  }
  const parsed = tokenAnswer.safeParse(json);
  if (!parsed.success) throw new ProviderCallError(status, null, 'the token endpoint answered an unexpected body');
  const answer = parsed.data;
  return {
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    // Without expires_in, assume the common hour; a refresh comes early rather than late.
    expiresAt: new Date(Date.now() + (answer.expires_in ?? 3600) * 1000),
    tokenType: answer.token_type,
    scopes: answer.scope === undefined ? null : answer.scope.split(' ').filter(Boolean),
  };
}

export function exchangeCode(
  provider: OAuthProvider,
  client: ClientCredentials,
  request: { code: string; verifier: string; redirectUri: string; scopes: string[] },
): Promise<TokenSet> {
  return tokenRequest(provider, {
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    code_verifier: request.verifier,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    // Provider B takes the scopes on the token request too; provider A ignores them.
    ...(provider === 'oauth_provider_b' ? { scope: request.scopes.join(' ') } : {}),
  });
}

export function refreshTokens(provider: OAuthProvider, client: ClientCredentials, refreshToken: string, scopes: string[]): Promise<TokenSet> {
  return tokenRequest(provider, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...(provider === 'oauth_provider_b' && scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
  });
}

const userinfoAnswer = z.object({ email: z.string().min(3).max(320), email_verified: z.boolean().optional() });
const meAnswer = z.object({ mail: z.string().max(320).nullish(), userPrincipalName: z.string().max(320).nullish() });
const address = z.string().trim().toLowerCase().pipe(z.email().max(320));

/** The address of the account that consented, lower-cased. */
export async function accountAddress(provider: OAuthProvider, accessToken: string): Promise<string> {
  const { accountUrl } = providerDefinition(provider).endpoints(config());
  const { status, json } = await callJson(accountUrl, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
  if (status !== 200) throw new ProviderCallError(status, null, `the account endpoint answered ${status}`);
  let candidate: string | null | undefined;
  if (provider === 'oauth_provider_a') {
    const parsed = userinfoAnswer.safeParse(json);
    // An address the provider has not verified does not name the mailbox.
    candidate = parsed.success && parsed.data.email_verified !== false ? parsed.data.email : null;
  } else {
    const parsed = meAnswer.safeParse(json);
    candidate = parsed.success ? (parsed.data.mail ?? parsed.data.userPrincipalName) : null;
  }
  const checked = address.safeParse(candidate);
  if (!checked.success) throw new ProviderCallError(status, null, 'the account endpoint gave no usable address');
  return checked.data;
}
