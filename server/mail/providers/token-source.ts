/**
 * Where the OAuth provider adapters get their access tokens. The token store (refresh, sealing) lives
 * in the OAuth domain, which server/core may not import; each process that syncs or reads mail (the
 * runner, the web server) installs it once at start with `setOAuthTokenSource`, and `openAdapter`
 * (../adapters.ts) asks it for the mailbox's credential. Tests pass a source to `openAdapter` directly.
 */

/** An access token for a stored OAuth grant; `forceRefresh` after the provider refused the current one. */
export type OAuthTokenSource = (credentialId: string, options?: { forceRefresh?: boolean }) => Promise<string>;

let installed: OAuthTokenSource | null = null;

export function setOAuthTokenSource(source: OAuthTokenSource | null): void {
  installed = source;
}

export function oauthTokenSource(): OAuthTokenSource | null {
  return installed;
}
