import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { sealJson } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { createMember, type TestMember } from '../../testing/factories';
import { startFakeOAuthProvider, type FakeOAuthProvider } from '../../testing/fakes/oauth-provider';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { openGrant, sealGrant } from './grants';
import { getAccessToken, OAuthTokenError } from './tokens';

await useTestDatabase();

const clients = {
  oauth_provider_a: { clientId: '42-tokens.apps.googleusercontent.com', clientSecret: 'token-test-secret-a' },
  oauth_provider_b: { clientId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', clientSecret: 'token-test-secret-b' },
} as const;
const fakes = {} as Record<keyof typeof clients, FakeOAuthProvider>;
let admin: TestMember;
let member: TestMember;

beforeAll(async () => {
  fakes.oauth_provider_a = await startFakeOAuthProvider({ flavour: 'a', ...clients.oauth_provider_a, account: { email: 'ada@example.test' } });
  fakes.oauth_provider_b = await startFakeOAuthProvider({ flavour: 'b', ...clients.oauth_provider_b, account: { email: 'grace@contoso.test' } });
  Object.assign(process.env, fakes.oauth_provider_a.env, fakes.oauth_provider_b.env);
  resetConfigForTests();
  admin = await createMember({ role: 'admin' });
  member = await createMember();
});

afterAll(async () => {
  await fakes.oauth_provider_a.close();
  await fakes.oauth_provider_b.close();
});

beforeEach(async () => {
  await db().credential.deleteMany();
  await db().mailbox.deleteMany();
  for (const provider of Object.keys(clients) as (keyof typeof clients)[]) {
    await call('PUT', `/api/v1/admin/oauth-apps/${provider}`, { cookie: admin.cookie, body: { ...clients[provider], status: 'active' } });
    fakes[provider].failTokenEndpoint(null);
  }
});

/** A grant made through the real flow; answers its credential id. */
async function granted(provider: keyof typeof clients): Promise<string> {
  const started = await call('POST', `/api/v1/oauth/${provider}/start`, { cookie: member.cookie, body: {} });
  const back = await fakes[provider].consent(started.body.authorizationUrl);
  const done = await call('GET', `${back.pathname}${back.search}`, { cookie: member.cookie });
  expect(done.headers.get('location')).toContain('connected=');
  return (await db().credential.findFirstOrThrow({ where: { memberId: member.id } })).id;
}

/** Moves the stored access token's expiry to `at` (as if time had passed). */
async function expireAt(credentialId: string, at: Date) {
  const row = await db().credential.findUniqueOrThrow({ where: { id: credentialId } });
  const secret = openGrant(row.id, row.dataEnc);
  await db().credential.update({ where: { id: row.id }, data: { dataEnc: sealGrant(row.id, { ...secret, expiresAt: at.toISOString() }) } });
}

async function failureOf(promise: Promise<unknown>): Promise<OAuthTokenError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OAuthTokenError);
  return error as OAuthTokenError;
}

describe('getAccessToken', () => {
  it('answers the stored token while it has more than a minute left, without calling the provider', async () => {
    const id = await granted('oauth_provider_a');
    const requests = fakes.oauth_provider_a.tokenRequests.length;
    const token = await getAccessToken(id);
    expect(token).toMatchObject({ accessToken: fakes.oauth_provider_a.issuedAccessTokens.at(-1), provider: 'oauth_provider_a' });
    expect(fakes.oauth_provider_a.tokenRequests.length).toBe(requests);
  });

  it('refreshes an expiring token, stores the new one sealed and keeps provider A’s refresh token', async () => {
    const id = await granted('oauth_provider_a');
    const before = openGrant(id, (await db().credential.findUniqueOrThrow({ where: { id } })).dataEnc);
    await expireAt(id, new Date(Date.now() + 30_000));
    const token = await getAccessToken(id);
    expect(fakes.oauth_provider_a.tokenRequests.at(-1)).toMatchObject({ grantType: 'refresh_token', status: 200 });
    expect(token.accessToken).not.toBe(before.accessToken);
    expect(token.expiresAt.getTime()).toBeGreaterThan(Date.now() + 3000_000);
    const row = await db().credential.findUniqueOrThrow({ where: { id } });
    expect(row.dataEnc).not.toContain(token.accessToken);
    expect(openGrant(id, row.dataEnc)).toMatchObject({ accessToken: token.accessToken, refreshToken: before.refreshToken });
    // The new token is the one used next.
    expect((await getAccessToken(id)).accessToken).toBe(token.accessToken);
  });

  it('stores provider B’s rotated refresh token', async () => {
    const id = await granted('oauth_provider_b');
    const before = openGrant(id, (await db().credential.findUniqueOrThrow({ where: { id } })).dataEnc);
    await expireAt(id, new Date(Date.now() - 1000));
    await getAccessToken(id);
    const after = openGrant(id, (await db().credential.findUniqueOrThrow({ where: { id } })).dataEnc);
    expect(after.refreshToken).toBe(fakes.oauth_provider_b.issuedRefreshTokens.at(-1));
    expect(after.refreshToken).not.toBe(before.refreshToken);
  });

  it('maps a revoked grant (invalid_grant) to an auth failure', async () => {
    const id = await granted('oauth_provider_b');
    await expireAt(id, new Date(Date.now() - 1000));
    fakes.oauth_provider_b.revokeRefreshTokens();
    const error = await failureOf(getAccessToken(id));
    expect(error).toMatchObject({ kind: 'auth', code: 'invalid_grant', httpStatus: 400 });
    expect(error.message).not.toMatch(/rt-|at-/);
  });

  it('maps a provider outage to a transient failure and a disabled application to a config failure', async () => {
    const id = await granted('oauth_provider_a');
    await expireAt(id, new Date(Date.now() - 1000));
    fakes.oauth_provider_a.failTokenEndpoint(503);
    expect(await failureOf(getAccessToken(id))).toMatchObject({ kind: 'transient', code: 'provider_unavailable', httpStatus: 503 });
    fakes.oauth_provider_a.failTokenEndpoint(null);
    await call('PUT', '/api/v1/admin/oauth-apps/oauth_provider_a', { cookie: admin.cookie, body: { ...clients.oauth_provider_a, status: 'disabled' } });
    expect(await failureOf(getAccessToken(id))).toMatchObject({ kind: 'config', code: 'app_not_configured' });
  });

  it('maps a changed client secret (invalid_client) to a config failure', async () => {
    const id = await granted('oauth_provider_a');
    await expireAt(id, new Date(Date.now() - 1000));
    await call('PUT', '/api/v1/admin/oauth-apps/oauth_provider_a', { cookie: admin.cookie, body: { ...clients.oauth_provider_a, clientSecret: 'wrong' } });
    expect(await failureOf(getAccessToken(id))).toMatchObject({ kind: 'config', code: 'invalid_client', httpStatus: 401 });
  });

  it('refuses an id that is not an OAuth grant', async () => {
    expect(await failureOf(getAccessToken(crypto.randomUUID()))).toMatchObject({ kind: 'config', code: 'not_an_oauth_grant' });
    const id = crypto.randomUUID();
    await db().credential.create({ data: { id, memberId: member.id, type: 'imap', name: 'imap', dataEnc: sealJson({ password: 'p' }, `credential:${id}`) } });
    expect(await failureOf(getAccessToken(id))).toMatchObject({ kind: 'config', code: 'not_an_oauth_grant' });
  });
});
