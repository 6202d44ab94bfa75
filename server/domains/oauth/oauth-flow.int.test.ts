/**
 * The whole connection flow against local fakes of both providers: start → the provider's consent
 * (the fake plays the browser and the member) → the callback → grant and mailbox.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { seal } from '../../core/crypto/secret-box';
import { db } from '../../core/db';
import { handleApiRequest } from '../../http/api-handler';
import { startBridgeServer, type BridgeServer } from '../../testing/bridge-server';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { startFakeOAuthProvider, type FakeOAuthProvider } from '../../testing/fakes/oauth-provider';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { openGrant } from './grants';
import { stateHashOf } from './pkce';
import { purgeEndedOAuthFlows } from './housekeeping';

await useTestDatabase();

const clients = {
  oauth_provider_a: { clientId: '123456789012-abc123def456.apps.googleusercontent.com', clientSecret: 'GOCSPX-fake-secret-a-1234' },
  oauth_provider_b: { clientId: '00001111-aaaa-2222-bbbb-3333cccc4444', clientSecret: 'fake~secret~b~5678' },
} as const;

let fakeA: FakeOAuthProvider;
let fakeB: FakeOAuthProvider;
let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  fakeA = await startFakeOAuthProvider({ flavour: 'a', ...clients.oauth_provider_a, account: { email: 'Ada@Example.test' } });
  fakeB = await startFakeOAuthProvider({ flavour: 'b', ...clients.oauth_provider_b, account: { email: 'grace@contoso.test' } });
  Object.assign(process.env, fakeA.env, fakeB.env);
  resetConfigForTests();
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  other = await createMember();
});

afterAll(async () => {
  await fakeA.close();
  await fakeB.close();
});

async function register(provider: keyof typeof clients, status: 'active' | 'disabled' = 'active') {
  const response = await call('PUT', `/api/v1/admin/oauth-apps/${provider}`, { cookie: admin.cookie, body: { ...clients[provider], status } });
  expect(response.status).toBe(200);
}

beforeEach(async () => {
  await db().mailbox.deleteMany();
  await db().credential.deleteMany();
  await db().oAuthFlow.deleteMany();
  await db().$executeRaw`DELETE FROM graphile_worker._private_jobs`;
  await register('oauth_provider_a');
  await register('oauth_provider_b');
});

async function start(who: TestMember, provider: string, capability?: string) {
  return call('POST', `/api/v1/oauth/${provider}/start`, { cookie: who.cookie, body: capability ? { capability } : {} });
}

/** The callback as the provider sends the browser to it, through the in-process API entry. */
function callback(who: TestMember | null, url: URL) {
  return call('GET', `${url.pathname}${url.search}`, who ? { cookie: who.cookie } : {});
}

/** start → consent → callback; answers the callback's redirect target. */
async function connect(who: TestMember, fake: FakeOAuthProvider, provider: string, capability?: string): Promise<URL> {
  const started = await start(who, provider, capability);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const back = await fake.consent(started.body.authorizationUrl);
  const response = await callback(who, back);
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

async function jobs() {
  return db().$queryRaw<{ task_identifier: string; payload: unknown; key: string | null }[]>`
    SELECT t.identifier AS task_identifier, j.payload, j.key
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id ORDER BY j.id`;
}

describe('POST /api/v1/oauth/{provider}/start', () => {
  it('answers the provider’s authorization URL with state, PKCE S256, the capability’s scopes and the instance callback', async () => {
    const before = Date.now();
    const response = await start(member, 'oauth_provider_a');
    expect(response.status).toBe(200);
    const url = new URL(response.body.authorizationUrl);
    expect(`${url.origin}${url.pathname}`).toBe(fakeA.env.OAUTH_PROVIDER_A_AUTH_URL);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({
      client_id: clients.oauth_provider_a.clientId,
      response_type: 'code',
      code_challenge_method: 'S256',
      access_type: 'offline',
      prompt: 'consent',
      scope: 'openid https://www.googleapis.com/auth/userinfo.email https://mail.google.com/',
    });
    expect(params.redirect_uri).toMatch(/\/api\/v1\/oauth\/oauth_provider_a\/callback$/);
    expect(params.code_challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expiresAt = new Date(response.body.expiresAt).getTime();
    expect(expiresAt - before).toBeGreaterThan(9 * 60_000);
    expect(expiresAt - before).toBeLessThanOrEqual(10 * 60_000 + 5_000);

    // Only the state's hash is stored, and the verifier is sealed.
    const flow = await db().oAuthFlow.findFirstOrThrow();
    expect(flow).toMatchObject({ memberId: member.id, provider: 'oauth_provider_a', capability: 'mail', usedAt: null, stateHash: stateHashOf(params.state) });
    expect(JSON.stringify(flow)).not.toContain(params.state);
    expect(flow.codeVerifierEnc).toMatch(/^v1:/);
  });

  it('asks provider B for its scopes, with offline access', async () => {
    const response = await start(member, 'oauth_provider_b', 'calendar');
    const params = new URL(response.body.authorizationUrl).searchParams;
    expect(params.get('scope')).toBe('openid email offline_access https://graph.microsoft.com/User.Read https://graph.microsoft.com/Calendars.ReadWrite');
    expect(params.get('response_mode')).toBe('query');
  });

  it('refuses API keys: 403 api_key.session_required', async () => {
    const { secret } = await createApiKeyFor(member, ['connections:write', 'mailboxes:write']);
    const response = await call('POST', '/api/v1/oauth/oauth_provider_a/start', { key: secret, body: {} });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('api_key.session_required');
  });

  it.each([
    ['oauth_provider_x', undefined, 400, 'oauth.unsupported_provider'],
    ['oauth_provider_a', 'files', 400, 'oauth.capability_not_supported'],
    ['oauth_provider_a', 'sites', 400, 'oauth.capability_not_supported'],
    ['oauth_provider_b', 'sheets', 400, 'oauth.capability_not_supported'],
    ['oauth_provider_a', 'email', 400, 'request.bad_request'],
  ])('%s with capability %s answers %i %s', async (provider, capability, status, code) => {
    const response = await start(member, provider, capability);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  it('answers 409 oauth.app_not_configured when none is registered or it is disabled', async () => {
    await db().oAuthApp.delete({ where: { provider: 'oauth_provider_a' } });
    expect((await start(member, 'oauth_provider_a')).body.error.code).toBe('oauth.app_not_configured');
    await register('oauth_provider_b', 'disabled');
    const disabled = await start(member, 'oauth_provider_b');
    expect(disabled.status).toBe(409);
    expect(disabled.body.error.code).toBe('oauth.app_not_configured');
  });

  it('answers 409 oauth.encryption_disabled without an instance key', async () => {
    const saved = process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEY;
    resetConfigForTests();
    try {
      const response = await start(member, 'oauth_provider_a');
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe('oauth.encryption_disabled');
    } finally {
      process.env.ENCRYPTION_KEY = saved;
      resetConfigForTests();
    }
  });
});

describe('GET /api/v1/oauth/{provider}/callback', () => {
  it('connects a provider A mailbox: tokens sealed in a grant, mailbox active with its sync queued, redirect to the app', async () => {
    const target = await connect(member, fakeA, 'oauth_provider_a');
    expect(target.pathname).toBe('/settings/mailboxes');
    expect(Object.fromEntries(target.searchParams)).toEqual({ connected: 'oauth_provider_a' });

    const grant = await db().credential.findFirstOrThrow({ where: { memberId: member.id } });
    expect(grant).toMatchObject({ type: 'mail_provider_a_oauth', scope: 'member', name: 'ada@example.test', accountEmail: 'ada@example.test', capabilities: ['mail'] });
    expect(grant.oauthScopes).toContain('https://mail.google.com/');
    // The column holds no token text; the sealed value opens to the tokens the provider issued.
    for (const token of [...fakeA.issuedAccessTokens, ...fakeA.issuedRefreshTokens]) expect(grant.dataEnc).not.toContain(token);
    const secret = openGrant(grant.id, grant.dataEnc);
    expect(secret.accessToken).toBe(fakeA.issuedAccessTokens.at(-1));
    expect(secret.refreshToken).toBe(fakeA.issuedRefreshTokens.at(-1));

    const mailbox = await db().mailbox.findFirstOrThrow({ where: { memberId: member.id } });
    expect(mailbox).toMatchObject({ provider: 'mail_provider_a', address: 'ada@example.test', status: 'active', credentialId: grant.id });
    expect(await jobs()).toEqual([{ task_identifier: 'mail.sync', payload: { mailboxId: mailbox.id, reason: 'connect' }, key: `mail-sync:${mailbox.id}` }]);

    // The code was exchanged with the PKCE verifier and the client's credentials.
    const exchange = fakeA.tokenRequests.at(-1)!;
    expect(exchange).toMatchObject({ grantType: 'authorization_code', status: 200 });
    expect(exchange.fields).toEqual(expect.arrayContaining(['code', 'code_verifier', 'redirect_uri', 'client_id', 'client_secret']));

    const audit = await db().auditEntry.findFirstOrThrow({ where: { action: 'oauth.account_connected' } });
    expect(audit.details).toMatchObject({ provider: 'oauth_provider_a', accountEmail: 'ada@example.test', capability: 'mail', mailboxId: mailbox.id });
    expect(JSON.stringify(audit)).not.toContain(secret.accessToken);

    const listed = await call('GET', '/api/v1/credentials?type=mail_provider_a_oauth', { cookie: member.cookie });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: grant.id, capabilities: ['mail'] })]);
    expect(JSON.stringify(listed.body)).not.toContain(secret.accessToken);
  });

  it('reconnects on a second flow: same grant, same mailbox made active again, capabilities merged', async () => {
    await connect(member, fakeA, 'oauth_provider_a');
    const grant = await db().credential.findFirstOrThrow({ where: { memberId: member.id } });
    const mailbox = await db().mailbox.findFirstOrThrow({ where: { memberId: member.id } });
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected', disconnectedAt: new Date(), failureCount: 4 } });
    const firstRefresh = openGrant(grant.id, grant.dataEnc).refreshToken;

    const again = await connect(member, fakeA, 'oauth_provider_a');
    expect(again.searchParams.get('connected')).toBe('oauth_provider_a');
    expect(await db().credential.count()).toBe(1);
    expect(await db().mailbox.count()).toBe(1);
    expect(await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).toMatchObject({ status: 'active', disconnectedAt: null, failureCount: 0, credentialId: grant.id });
    const renewed = await db().credential.findUniqueOrThrow({ where: { id: grant.id } });
    expect(openGrant(grant.id, renewed.dataEnc).refreshToken).not.toBe(firstRefresh);

    // Another capability on the same account merges into the grant and returns to the connections page.
    const drive = await connect(member, fakeA, 'oauth_provider_a', 'drive');
    expect(drive.pathname).toBe('/settings/connections');
    expect((await db().credential.findUniqueOrThrow({ where: { id: grant.id } })).capabilities).toEqual(['mail', 'drive']);
    expect(await db().mailbox.count()).toBe(1);
  });

  it('stores a grant without a mailbox for another capability, and a second account as another grant', async () => {
    const target = await connect(member, fakeA, 'oauth_provider_a', 'calendar');
    expect(target.searchParams.get('connected')).toBe('oauth_provider_a');
    expect(await db().mailbox.count()).toBe(0);
    fakeA.setAccount({ email: 'second@example.test' });
    try {
      await connect(member, fakeA, 'oauth_provider_a', 'calendar');
    } finally {
      fakeA.setAccount({ email: 'Ada@Example.test' });
    }
    const grants = await db().credential.findMany({ orderBy: { createdAt: 'asc' } });
    expect(grants.map((grant) => [grant.accountEmail, grant.capabilities])).toEqual([
      ['ada@example.test', ['calendar']],
      ['second@example.test', ['calendar']],
    ]);
    expect(await jobs()).toEqual([]);
  });

  it('connects a provider B mailbox through Graph /me', async () => {
    const target = await connect(member, fakeB, 'oauth_provider_b');
    expect(target.searchParams.get('connected')).toBe('oauth_provider_b');
    const mailbox = await db().mailbox.findFirstOrThrow({ where: { memberId: member.id } });
    expect(mailbox).toMatchObject({ provider: 'mail_provider_b', address: 'grace@contoso.test', status: 'active' });
    const grant = await db().credential.findUniqueOrThrow({ where: { id: mailbox.credentialId! } });
    expect(grant.type).toBe('mail_provider_b_oauth');
    for (const token of fakeB.issuedAccessTokens) expect(grant.dataEnc).not.toContain(token);
  });

  it('refuses a state used twice: the second callback redirects with oauth.state_invalid and changes nothing', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    expect((await callback(member, back)).status).toBe(302);
    const replay = await callback(member, back);
    expect(replay.status).toBe(302);
    expect(new URL(replay.headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
    expect(await db().credential.count()).toBe(1);
  });

  it('refuses an expired state', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    await db().oAuthFlow.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await callback(member, back);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
    expect(await db().credential.count()).toBe(0);
  });

  it('refuses another member’s session with the state, and leaves the flow to its owner', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    const stolen = await callback(other, back);
    expect(new URL(stolen.headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
    expect(await db().credential.count()).toBe(0);
    const own = await callback(member, back);
    expect(new URL(own.headers.get('location')!).searchParams.get('connected')).toBe('oauth_provider_a');
  });

  it('refuses a state started for the other provider, an unknown state and a missing one', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    const wrongProvider = await call('GET', `/api/v1/oauth/oauth_provider_b/callback${back.search}`, { cookie: member.cookie });
    expect(new URL(wrongProvider.headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
    for (const search of ['?code=x&state=unknown', '?code=x']) {
      const response = await call('GET', `/api/v1/oauth/oauth_provider_a/callback${search}`, { cookie: member.cookie });
      expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
    }
    const unsupported = await call('GET', `/api/v1/oauth/oauth_provider_q/callback${back.search}`, { cookie: member.cookie });
    expect(new URL(unsupported.headers.get('location')!).searchParams.get('error')).toBe('oauth.unsupported_provider');
  });

  it('needs a member session: 401 without one, 403 api_key.session_required with a key', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    const anonymous = await callback(null, back);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('auth.unauthenticated');
    const { secret } = await createApiKeyFor(member, ['connections:write']);
    const keyed = await call('GET', `${back.pathname}${back.search}`, { key: secret });
    expect(keyed.status).toBe(403);
    expect(keyed.body.error.code).toBe('api_key.session_required');
    // Neither spent the state.
    expect((await callback(member, back)).headers.get('location')).toContain('connected=oauth_provider_a');
  });

  it('redirects with oauth.access_denied when the member refuses at the provider', async () => {
    fakeB.refuseNext();
    const target = await connect(member, fakeB, 'oauth_provider_b');
    expect(target.searchParams.get('error')).toBe('oauth.access_denied');
    expect(await db().credential.count()).toBe(0);
  });

  it('redirects with oauth.scope_missing when a capability scope was not granted', async () => {
    fakeA.withholdScopes(['https://mail.google.com/']);
    try {
      const target = await connect(member, fakeA, 'oauth_provider_a');
      expect(target.searchParams.get('error')).toBe('oauth.scope_missing');
    } finally {
      fakeA.withholdScopes([]);
    }
    expect(await db().mailbox.count()).toBe(0);
  });

  it('redirects with oauth.exchange_failed when the token endpoint fails, and the state is spent', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    fakeA.failTokenEndpoint(503);
    try {
      const response = await callback(member, back);
      expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('oauth.exchange_failed');
    } finally {
      fakeA.failTokenEndpoint(null);
    }
    expect(new URL((await callback(member, back)).headers.get('location')!).searchParams.get('error')).toBe('oauth.state_invalid');
  });

  it('sends the verifier the provider checks: a flow whose verifier does not match its challenge fails', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    const flow = await db().oAuthFlow.findFirstOrThrow();
    await db().oAuthFlow.update({ where: { id: flow.id }, data: { codeVerifierEnc: seal('another-verifier-another-verifier-another-12', `oauth-flow:${flow.id}`) } });
    const response = await callback(member, back);
    expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('oauth.exchange_failed');
    expect(fakeA.tokenRequests.at(-1)).toMatchObject({ status: 400 });
  });

  it('refuses an account whose address the provider has not verified', async () => {
    fakeA.setAccount({ email: 'unverified@example.test', verified: false });
    try {
      const target = await connect(member, fakeA, 'oauth_provider_a');
      expect(target.searchParams.get('error')).toBe('oauth.exchange_failed');
    } finally {
      fakeA.setAccount({ email: 'Ada@Example.test' });
    }
  });

  it('calls the provider through the network guard: a loopback token endpoint is refused unless private hosts are allowed', async () => {
    const started = await start(member, 'oauth_provider_a');
    const back = await fakeA.consent(started.body.authorizationUrl);
    const requests = fakeA.tokenRequests.length;
    process.env.MAIL_ALLOW_PRIVATE_HOSTS = '0';
    resetConfigForTests();
    try {
      const response = await callback(member, back);
      expect(new URL(response.headers.get('location')!).searchParams.get('error')).toBe('oauth.exchange_failed');
    } finally {
      process.env.MAIL_ALLOW_PRIVATE_HOSTS = '1';
      resetConfigForTests();
    }
    expect(fakeA.tokenRequests.length).toBe(requests);
  });

  it('answers the redirect over a real socket, with no-store and no Referer', async () => {
    const server: BridgeServer = await startBridgeServer(handleApiRequest);
    try {
      const started = await start(member, 'oauth_provider_b');
      const back = await fakeB.consent(started.body.authorizationUrl);
      const response = await fetch(`${server.base}${back.pathname}${back.search}`, { headers: { cookie: member.cookie }, redirect: 'manual' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toMatch(/\/settings\/mailboxes\?connected=oauth_provider_b$/);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('purgeEndedOAuthFlows', () => {
  it('deletes flows expired for more than a day and keeps the rest', async () => {
    await start(member, 'oauth_provider_a');
    await start(member, 'oauth_provider_a');
    const [old, recent] = await db().oAuthFlow.findMany({ orderBy: { createdAt: 'asc' } });
    const now = Date.now();
    await db().oAuthFlow.update({ where: { id: old.id }, data: { expiresAt: new Date(now - 25 * 3600_000) } });
    await db().oAuthFlow.update({ where: { id: recent.id }, data: { expiresAt: new Date(now - 23 * 3600_000) } });
    expect(await purgeEndedOAuthFlows(new Date(now))).toBe(1);
    expect((await db().oAuthFlow.findMany()).map((flow) => flow.id)).toEqual([recent.id]);
  });
});
