/**
 * A local OAuth authorization server speaking the two providers' real wire formats, for tests:
 *
 * - flavour `a` (Google-like): `GET /o/oauth2/v2/auth`, `POST /token`, `GET /oauth2/v3/userinfo`.
 * - flavour `b` (Microsoft identity platform v2 + Graph): `GET /{tenant}/oauth2/v2.0/authorize`,
 *   `POST /{tenant}/oauth2/v2.0/token`, `GET /v1.0/me`.
 *
 * Token requests are `application/x-www-form-urlencoded`; answers are JSON: `{access_token, expires_in,
 * refresh_token, scope, token_type, id_token}` on success, RFC 6749 errors `{error, error_description}`
 * (flavour b adds `error_codes`, `timestamp`, `trace_id`, `correlation_id` and AADSTS descriptions).
 * It checks what the real servers check: the client id and secret, the redirect URI given at
 * authorization, single-use unexpired codes, and PKCE (S256 of the verifier equals the challenge).
 *
 * The "browser" part is automatic: the authorize endpoint consents at once as the current account
 * (or refuses, when told to) and redirects to the redirect URI, like a provider after the member
 * clicked Allow. `consent(authorizationUrl)` follows that step and returns the callback URL.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Flavour = 'a' | 'b';

export interface FakeAccount {
  email: string;
  /** Provider A: `email_verified` (default true). */
  verified?: boolean;
}

export interface FakeOAuthOptions {
  flavour: Flavour;
  clientId: string;
  clientSecret: string;
  account: FakeAccount;
  tenant?: string;
  /** Access token lifetime in seconds (default 3599, as both providers answer). */
  accessTokenSeconds?: number;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  challengeMethod: string | null;
  scopes: string[];
  email: string;
  expiresAt: number;
  used: boolean;
}

interface AccessGrant {
  email: string;
  scopes: string[];
  expiresAt: number;
}

export interface TokenRequestRecord {
  grantType: string | null;
  /** The form's field names (never their values: some are secrets). */
  fields: string[];
  status: number;
}

export interface FakeOAuthProvider {
  base: string;
  /** Environment variables pointing the instance at this fake (OAUTH_PROVIDER_A_… or _B_…). */
  env: Record<string, string>;
  /** The account that consents next. */
  setAccount(account: FakeAccount): void;
  /** The next authorization is refused (`error=access_denied`), as when the member clicks Cancel. */
  refuseNext(): void;
  /** Scopes the member unticks on the consent screen (provider A's granular consent). */
  withholdScopes(scopes: string[]): void;
  /** Follows the authorization URL like a browser whose member consents; returns the callback URL. */
  consent(authorizationUrl: string): Promise<URL>;
  /** Every refresh token issued so far stops working (`invalid_grant`), as after a revocation. */
  revokeRefreshTokens(): void;
  /** The token endpoint answers this status (e.g. 503) until cleared. */
  failTokenEndpoint(status: number | null): void;
  tokenRequests: TokenRequestRecord[];
  /** Access tokens issued, for asserting that they are stored sealed. */
  issuedAccessTokens: string[];
  issuedRefreshTokens: string[];
  close(): Promise<void>;
}

const codeLifetimeMs = 60_000;
const maxFormBytes = 64 * 1024;

function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

function fakeIdToken(email: string, clientId: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 'fake', aud: clientId, sub: email, email })}.${randomBytes(16).toString('base64url')}`;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxFormBytes) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

export async function startFakeOAuthProvider(options: FakeOAuthOptions): Promise<FakeOAuthProvider> {
  const tenant = options.tenant ?? 'common';
  const lifetime = options.accessTokenSeconds ?? 3599;
  let account = options.account;
  let refuse = false;
  let withheld: string[] = [];
  let tokenFailure: number | null = null;
  const codes = new Map<string, IssuedCode>();
  const accessTokens = new Map<string, AccessGrant>();
  const refreshTokens = new Map<string, { email: string; scopes: string[] }>();
  const tokenRequests: TokenRequestRecord[] = [];
  const issuedAccessTokens: string[] = [];
  const issuedRefreshTokens: string[] = [];

  const paths =
    options.flavour === 'a'
      ? { authorize: '/o/oauth2/v2/auth', token: '/token', account: '/oauth2/v3/userinfo' }
      : { authorize: `/${tenant}/oauth2/v2.0/authorize`, token: `/${tenant}/oauth2/v2.0/token`, account: '/v1.0/me' };

  /** An RFC 6749 error in the flavour's form. */
  function oauthError(response: ServerResponse, status: number, error: string, description: string, aadsts?: number): void {
    if (options.flavour === 'a') return json(response, status, { error, error_description: description });
    const timestamp = new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z';
    const traceId = randomUUID();
    const correlationId = randomUUID();
    json(response, status, {
      error,
      error_description: `AADSTS${aadsts ?? 9002313}: ${description}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
      error_codes: [aadsts ?? 9002313],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      error_uri: `https://login.microsoftonline.com/error?code=${aadsts ?? 9002313}`,
    });
  }

  /** The scope string a token answer lists: provider B echoes resource scopes in lower case, without openid/offline_access. */
  function grantedScopeText(scopes: string[]): string {
    if (options.flavour === 'a') return scopes.join(' ');
    return scopes.filter((scope) => !['openid', 'email', 'profile', 'offline_access'].includes(scope)).map((scope) => scope.toLowerCase()).join(' ');
  }

  function issueTokens(email: string, scopes: string[], withRefresh: boolean) {
    const accessToken = `at-${options.flavour}-${randomBytes(24).toString('base64url')}`;
    accessTokens.set(accessToken, { email, scopes, expiresAt: Date.now() + lifetime * 1000 });
    issuedAccessTokens.push(accessToken);
    let refreshToken: string | undefined;
    if (withRefresh) {
      refreshToken = `rt-${options.flavour}-${randomBytes(24).toString('base64url')}`;
      refreshTokens.set(refreshToken, { email, scopes });
      issuedRefreshTokens.push(refreshToken);
    }
    return {
      ...(options.flavour === 'b' ? { token_type: 'Bearer', scope: grantedScopeText(scopes), expires_in: lifetime, ext_expires_in: lifetime } : {}),
      access_token: accessToken,
      ...(options.flavour === 'a' ? { expires_in: lifetime, scope: grantedScopeText(scopes), token_type: 'Bearer' } : {}),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      id_token: fakeIdToken(email, options.clientId),
    };
  }

  function authorize(url: URL, response: ServerResponse): void {
    const query = url.searchParams;
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== options.clientId || !redirectUri) {
      // Both providers show an error page here rather than redirecting to an unverified URI.
      response.writeHead(400, { 'content-type': 'text/html' });
      response.end('<h1>Error 400: invalid_request</h1>');
      return;
    }
    const target = new URL(redirectUri);
    const state = query.get('state');
    if (refuse) {
      refuse = false;
      target.searchParams.set('error', 'access_denied');
      if (options.flavour === 'b') target.searchParams.set('error_description', 'AADSTS65004: User declined to consent to access the app.');
    } else if (query.get('response_type') !== 'code' || (query.get('code_challenge') && query.get('code_challenge_method') !== 'S256')) {
      target.searchParams.set('error', 'invalid_request');
    } else {
      const scopes = (query.get('scope') ?? '').split(' ').filter((scope) => scope && !withheld.includes(scope));
      const code = `${options.flavour === 'a' ? '4/0A' : '0.A'}${randomBytes(32).toString('base64url')}`;
      codes.set(code, {
        clientId: options.clientId,
        redirectUri,
        challenge: query.get('code_challenge'),
        challengeMethod: query.get('code_challenge_method'),
        scopes,
        email: account.email,
        expiresAt: Date.now() + codeLifetimeMs,
        used: false,
      });
      target.searchParams.set('code', code);
      if (options.flavour === 'a') {
        target.searchParams.set('scope', scopes.join(' '));
        target.searchParams.set('authuser', '0');
        target.searchParams.set('prompt', 'consent');
      } else {
        target.searchParams.set('session_state', randomUUID());
      }
    }
    if (state !== null) target.searchParams.set('state', state);
    response.writeHead(302, { location: target.toString() });
    response.end();
  }

  async function token(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const form = await readForm(request);
    const record: TokenRequestRecord = { grantType: form?.get('grant_type') ?? null, fields: form ? [...form.keys()] : [], status: 0 };
    tokenRequests.push(record);
    const answer = (status: number, respond: () => void) => {
      record.status = status;
      respond();
    };
    if (!form || !(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
      return answer(400, () => oauthError(response, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.', 900144));
    }
    if (tokenFailure !== null) {
      const status = tokenFailure;
      return answer(status, () => oauthError(response, status, 'temporarily_unavailable', 'The server is temporarily unavailable.', 90055));
    }
    if (form.get('client_id') !== options.clientId || form.get('client_secret') !== options.clientSecret) {
      return answer(401, () => oauthError(response, 401, 'invalid_client', options.flavour === 'a' ? 'Unauthorized' : 'Invalid client secret provided.', 7000215));
    }
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const issued = codes.get(code);
      if (!issued || issued.used || issued.expiresAt < Date.now()) {
        if (issued) issued.used = true;
        return answer(400, () => oauthError(response, 400, 'invalid_grant', options.flavour === 'a' ? 'Bad Request' : 'The provided authorization code or refresh token has expired due to inactivity.', 70008));
      }
      // A code is spent by any attempt, as on the real servers.
      issued.used = true;
      if (form.get('redirect_uri') !== issued.redirectUri) {
        return answer(400, () => oauthError(response, 400, options.flavour === 'a' ? 'redirect_uri_mismatch' : 'invalid_grant', "The provided value for the input parameter 'redirect_uri' is not valid.", 50011));
      }
      if (issued.challenge !== null) {
        const verifier = form.get('code_verifier');
        if (!verifier) return answer(400, () => oauthError(response, 400, 'invalid_grant', 'Missing code verifier.', 501491));
        if (s256(verifier) !== issued.challenge) {
          return answer(400, () => oauthError(response, 400, 'invalid_grant', 'The code_verifier does not match the code_challenge supplied in the authorization request.', 501481));
        }
      }
      return answer(200, () => json(response, 200, issueTokens(issued.email, issued.scopes, true)));
    }
    if (grantType === 'refresh_token') {
      const known = refreshTokens.get(form.get('refresh_token') ?? '');
      if (!known) return answer(400, () => oauthError(response, 400, 'invalid_grant', options.flavour === 'a' ? 'Token has been expired or revoked.' : 'The refresh token has expired or is invalid.', 700082));
      // Provider B rotates refresh tokens (the old one stays valid for a while); provider A sends none.
      return answer(200, () => json(response, 200, issueTokens(known.email, known.scopes, options.flavour === 'b')));
    }
    return answer(400, () => oauthError(response, 400, 'unsupported_grant_type', 'The grant type is not supported.', 70003));
  }

  function accountInfo(request: IncomingMessage, response: ServerResponse): void {
    const header = request.headers.authorization ?? '';
    const grant = header.startsWith('Bearer ') ? accessTokens.get(header.slice('Bearer '.length)) : undefined;
    if (!grant || grant.expiresAt < Date.now()) {
      if (options.flavour === 'a') return json(response, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' }, { 'www-authenticate': 'Bearer realm="https://accounts.google.com/"' });
      return json(response, 401, { error: { code: 'InvalidAuthenticationToken', message: 'Access token is empty.' } });
    }
    if (options.flavour === 'a') {
      return json(response, 200, { sub: createHash('sha256').update(grant.email).digest('hex').slice(0, 21), email: grant.email, email_verified: account.verified ?? true });
    }
    json(response, 200, {
      '@odata.context': 'https://graph.microsoft.com/v1.0/$metadata#users/$entity',
      businessPhones: [],
      displayName: grant.email.split('@')[0],
      mail: grant.email,
      userPrincipalName: grant.email,
      id: randomUUID(),
    });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const route = `${request.method} ${url.pathname}`;
    const handle = async () => {
      if (route === `GET ${paths.authorize}`) return authorize(url, response);
      if (route === `POST ${paths.token}`) return token(request, response);
      if (route === `GET ${paths.account}`) return accountInfo(request, response);
      json(response, 404, { error: 'not_found' });
    };
    handle().catch(() => {
      if (!response.headersSent) json(response, 500, { error: 'server_error' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> =
    options.flavour === 'a'
      ? {
          OAUTH_PROVIDER_A_AUTH_URL: `${base}${paths.authorize}`,
          OAUTH_PROVIDER_A_TOKEN_URL: `${base}${paths.token}`,
          OAUTH_PROVIDER_A_USERINFO_URL: `${base}${paths.account}`,
          OAUTH_PROVIDER_A_API_URL: base,
        }
      : {
          OAUTH_PROVIDER_B_AUTH_URL: `${base}${paths.authorize}`,
          OAUTH_PROVIDER_B_TOKEN_URL: `${base}${paths.token}`,
          OAUTH_PROVIDER_B_API_URL: base,
        };

  return {
    base,
    env,
    setAccount: (next) => {
      account = next;
    },
    refuseNext: () => {
      refuse = true;
    },
    withholdScopes: (scopes) => {
      withheld = scopes;
    },
    async consent(authorizationUrl) {
      const response = await fetch(authorizationUrl, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status !== 302 || !location) throw new Error(`fake OAuth provider: authorization refused with ${response.status}`);
      return new URL(location);
    },
    revokeRefreshTokens: () => refreshTokens.clear(),
    failTokenEndpoint: (status) => {
      tokenFailure = status;
    },
    tokenRequests,
    issuedAccessTokens,
    issuedRefreshTokens,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
