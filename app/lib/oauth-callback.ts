/** The OAuth callback's outcome as it comes back in the page's query, in words. */
import type { Dictionary } from '@/app/i18n';
import { oauthProviders, type OAuthProvider } from './mail-types';

export type Notice = { tone: 'success' | 'info' | 'danger'; text: string };

/** The OAuth callback comes back with `?connected=<oauth provider>` or `?error=<code>`. */
export function callbackNotice(params: URLSearchParams, t: Dictionary, connectedText: (provider: string) => string): Notice | null {
  const connected = params.get('connected');
  if (connected) {
    const name = (oauthProviders as readonly string[]).includes(connected) ? t.oauthProviderNames[connected as OAuthProvider] : connected.slice(0, 80);
    return { tone: 'success', text: connectedText(name) };
  }
  const error = params.get('error');
  if (error) {
    const known = (t.errors.codes as Record<string, string | undefined>)[error];
    return { tone: 'danger', text: known ?? t.mailboxes.notices.oauthFailed(error.slice(0, 80)) };
  }
  return null;
}

