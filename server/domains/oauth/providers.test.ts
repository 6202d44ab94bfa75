import { describe, expect, it } from 'vitest';
import { challengeOf, randomToken, stateHashOf } from './pkce';
import { allScopes, capabilities, clientIdMatches, missingScopes, normaliseScope, providerOfGrantType, returnPageOf, scopesByCapability, scopesFor, supportsCapability } from './providers';

describe('provider catalogue', () => {
  it('answers all six capability keys for both providers, empty where not offered', () => {
    for (const provider of ['oauth_provider_a', 'oauth_provider_b'] as const) {
      expect(Object.keys(scopesByCapability(provider)).sort()).toEqual([...capabilities].sort());
    }
    expect(scopesByCapability('oauth_provider_a').files).toEqual([]);
    expect(scopesByCapability('oauth_provider_a').sites).toEqual([]);
    expect(scopesByCapability('oauth_provider_b').sheets).toEqual([]);
  });

  it.each([
    ['oauth_provider_a', 'mail', true],
    ['oauth_provider_a', 'drive', true],
    ['oauth_provider_a', 'calendar', true],
    ['oauth_provider_a', 'sheets', true],
    ['oauth_provider_a', 'files', false],
    ['oauth_provider_a', 'sites', false],
    ['oauth_provider_b', 'mail', true],
    ['oauth_provider_b', 'sheets', false],
    ['oauth_provider_b', 'files', true],
    ['oauth_provider_b', 'sites', true],
  ] as const)('%s offers %s: %s', (provider, capability, offered) => {
    expect(supportsCapability(provider, capability)).toBe(offered);
  });

  it('asks the identity scopes with every capability, and lists every scope once', () => {
    expect(scopesFor('oauth_provider_a', 'mail')).toEqual(['openid', 'https://www.googleapis.com/auth/userinfo.email', 'https://mail.google.com/']);
    expect(scopesFor('oauth_provider_b', 'mail')).toContain('offline_access');
    const all = allScopes('oauth_provider_b');
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('https://graph.microsoft.com/Sites.ReadWrite.All');
  });

  it.each([
    ['oauth_provider_a', '123456789012-abc123def456.apps.googleusercontent.com', true],
    ['oauth_provider_a', '123-x.apps.googleusercontent.com', true],
    ['oauth_provider_a', 'abc-123.apps.googleusercontent.com', false],
    ['oauth_provider_a', '123-abc.apps.googleusercontent.com.evil.test', false],
    ['oauth_provider_a', '123-ABC.apps.googleusercontent.com', false],
    ['oauth_provider_b', '00001111-aaaa-2222-bbbb-3333cccc4444', true],
    ['oauth_provider_b', '00001111-AAAA-2222-BBBB-3333CCCC4444', true],
    ['oauth_provider_b', '00001111-aaaa-2222-bbbb-3333cccc444', false],
    ['oauth_provider_b', ' 00001111-aaaa-2222-bbbb-3333cccc4444', false],
  ] as const)('%s client id %s matches: %s', (provider, clientId, matches) => {
    expect(clientIdMatches(provider, clientId)).toBe(matches);
  });

  it('compares granted scopes without case and without provider B’s resource prefix', () => {
    expect(normaliseScope('https://graph.microsoft.com/Mail.ReadWrite')).toBe('mail.readwrite');
    expect(missingScopes('oauth_provider_b', 'mail', ['https://graph.microsoft.com/mail.readwrite', 'Mail.Send'])).toEqual([]);
    expect(missingScopes('oauth_provider_b', 'mail', ['https://graph.microsoft.com/mail.readwrite'])).toEqual(['https://graph.microsoft.com/Mail.Send']);
    expect(missingScopes('oauth_provider_a', 'mail', ['openid'])).toEqual(['https://mail.google.com/']);
    // An answer without `scope` granted what was asked (RFC 6749 §5.1).
    expect(missingScopes('oauth_provider_a', 'mail', null)).toEqual([]);
  });

  it('maps grant types back to providers and capabilities to return pages', () => {
    expect(providerOfGrantType('mail_provider_b_oauth')).toBe('oauth_provider_b');
    expect(providerOfGrantType('imap')).toBeNull();
    expect(providerOfGrantType('constructor')).toBeNull();
    expect(returnPageOf('mail')).toBe('/settings/mailboxes');
    expect(returnPageOf('drive')).toBe('/settings/connections');
    expect(returnPageOf(null)).toBe('/settings/mailboxes');
  });
});

describe('PKCE and state', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('draws 43-character url-safe tokens and hashes states to hex', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken()).not.toBe(token);
    expect(stateHashOf('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
