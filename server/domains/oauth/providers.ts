/**
 * The OAuth provider catalogue (pure): what each provider is called in the API, what it gives
 * (mailbox provider, connection type), which scopes each capability asks for, what a client id looks
 * like, and where its endpoints are (instance configuration, so tests reach local fakes).
 *
 * Terminology: a *provider* is `oauth_provider_a` / `oauth_provider_b` (the OAuth application's
 * values); a *capability* is what a member connects it for (`mail`, `drive`, …); a *grant* is the
 * stored result of one member's consent for one account (a Credential of the provider's grant type).
 */
import type { Config } from '../../core/config';

export const oauthProviders = ['oauth_provider_a', 'oauth_provider_b'] as const;
export type OAuthProvider = (typeof oauthProviders)[number];

export const capabilities = ['mail', 'drive', 'calendar', 'sheets', 'files', 'sites'] as const;
export type Capability = (typeof capabilities)[number];

export interface ProviderEndpoints {
  authUrl: string;
  tokenUrl: string;
  /** Where the account's address is read: provider A's userinfo, provider B's `/v1.0/me`. */
  accountUrl: string;
  /** Base of the mail API the sync adapters use. */
  apiUrl: string;
}

export interface ProviderDefinition {
  id: OAuthProvider;
  /** The Mailbox `provider` a `mail` grant creates. */
  mailboxProvider: 'mail_provider_a' | 'mail_provider_b';
  /** The Credential `type` of its grants. */
  grantType: 'mail_provider_a_oauth' | 'mail_provider_b_oauth';
  /** Asked with every capability: who the account is, and (B) a refresh token. */
  identityScopes: readonly string[];
  /** Scopes per capability; an empty list means the provider does not offer it. */
  capabilityScopes: Readonly<Record<Capability, readonly string[]>>;
  /** Checked against the client id an administrator registers (linear, anchored). */
  clientIdPattern: string;
  clientIdHint: string;
  /** Extra authorization request parameters (offline access, consent prompt). */
  authorizationParams: Readonly<Record<string, string>>;
  endpoints(config: Config): ProviderEndpoints;
}

const graph = 'https://graph.microsoft.com/';

const definitions: Record<OAuthProvider, ProviderDefinition> = {
  oauth_provider_a: {
    id: 'oauth_provider_a',
    mailboxProvider: 'mail_provider_a',
    grantType: 'mail_provider_a_oauth',
    identityScopes: ['openid', 'https://www.googleapis.com/auth/userinfo.email'],
    capabilityScopes: {
      mail: ['https://mail.google.com/'],
      drive: ['https://www.googleapis.com/auth/drive'],
      calendar: ['https://www.googleapis.com/auth/calendar'],
      sheets: ['https://www.googleapis.com/auth/spreadsheets'],
      files: [],
      sites: [],
    },
    clientIdPattern: '^[0-9]+-[a-z0-9]+\\.apps\\.googleusercontent\\.com$',
    clientIdHint: 'The client ID of a web application, such as 123456789012-abc123def456.apps.googleusercontent.com.',
    // A refresh token on every consent (offline + consent), and earlier grants kept (incremental).
    authorizationParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
    endpoints: (config) => ({
      authUrl: config.OAUTH_PROVIDER_A_AUTH_URL,
      tokenUrl: config.OAUTH_PROVIDER_A_TOKEN_URL,
      accountUrl: config.OAUTH_PROVIDER_A_USERINFO_URL,
      apiUrl: config.OAUTH_PROVIDER_A_API_URL,
    }),
  },
  oauth_provider_b: {
    id: 'oauth_provider_b',
    mailboxProvider: 'mail_provider_b',
    grantType: 'mail_provider_b_oauth',
    identityScopes: ['openid', 'email', 'offline_access', `${graph}User.Read`],
    capabilityScopes: {
      mail: [`${graph}Mail.ReadWrite`, `${graph}Mail.Send`],
      drive: [`${graph}Files.ReadWrite`],
      calendar: [`${graph}Calendars.ReadWrite`],
      // Workbooks are files here: use `files`.
      sheets: [],
      files: [`${graph}Files.ReadWrite.All`],
      sites: [`${graph}Sites.ReadWrite.All`],
    },
    clientIdPattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
    clientIdHint: 'The application (client) ID, a GUID such as 00001111-aaaa-2222-bbbb-3333cccc4444.',
    authorizationParams: { response_mode: 'query', prompt: 'select_account' },
    endpoints: (config) => ({
      authUrl: config.OAUTH_PROVIDER_B_AUTH_URL,
      tokenUrl: config.OAUTH_PROVIDER_B_TOKEN_URL,
      accountUrl: `${config.OAUTH_PROVIDER_B_API_URL}/v1.0/me`,
      apiUrl: config.OAUTH_PROVIDER_B_API_URL,
    }),
  },
};

export function isOAuthProvider(value: string): value is OAuthProvider {
  return (oauthProviders as readonly string[]).includes(value);
}

export function providerDefinition(provider: OAuthProvider): ProviderDefinition {
  return definitions[provider];
}

/** The provider whose grants have this Credential type, or null. */
export function providerOfGrantType(type: string): OAuthProvider | null {
  return oauthProviders.find((provider) => definitions[provider].grantType === type) ?? null;
}

export function supportsCapability(provider: OAuthProvider, capability: Capability): boolean {
  return definitions[provider].capabilityScopes[capability].length > 0;
}

/** Exactly what a flow for this capability asks for (identity scopes first); empty when not offered. */
export function scopesFor(provider: OAuthProvider, capability: Capability): string[] {
  const definition = definitions[provider];
  const specific = definition.capabilityScopes[capability];
  return specific.length === 0 ? [] : [...definition.identityScopes, ...specific];
}

/** Every capability's scopes, the six keys always present. */
export function scopesByCapability(provider: OAuthProvider): Record<Capability, string[]> {
  return Object.fromEntries(capabilities.map((capability) => [capability, scopesFor(provider, capability)])) as Record<Capability, string[]>;
}

/** Every scope the application may ask for: what to allow in the provider's console. */
export function allScopes(provider: OAuthProvider): string[] {
  return [...new Set(capabilities.flatMap((capability) => scopesFor(provider, capability)))];
}

export function clientIdMatches(provider: OAuthProvider, clientId: string): boolean {
  return new RegExp(definitions[provider].clientIdPattern).test(clientId);
}

/**
 * Scopes compare without case and without provider B's resource prefix: its token endpoint answers
 * `https://graph.microsoft.com/mail.readwrite` or `Mail.ReadWrite` for the same permission.
 */
export function normaliseScope(scope: string): string {
  const lower = scope.toLowerCase();
  return lower.startsWith(graph) ? lower.slice(graph.length) : lower;
}

/**
 * The capability scopes a token response did not grant (identity scopes are not checked: provider B
 * never echoes them). A response without `scope` granted what was asked (RFC 6749 §5.1).
 */
export function missingScopes(provider: OAuthProvider, capability: Capability, granted: readonly string[] | null): string[] {
  if (granted === null) return [];
  const have = new Set(granted.map(normaliseScope));
  return definitions[provider].capabilityScopes[capability].filter((scope) => !have.has(normaliseScope(scope)));
}

/** The app page a finished flow returns to: mailboxes for `mail`, connections for the rest. */
export function returnPageOf(capability: Capability | null): string {
  return capability === null || capability === 'mail' ? '/settings/mailboxes' : '/settings/connections';
}
